/** The engine rules (features/policies/overview, "Policy evaluation") and the activity namespace helpers. */
import { describe, expect, it } from 'vitest'
import {
  activityKind,
  activityResourceAction,
  type DecisionPolicy,
  decide,
  parsePolicy,
  ROOT_QUORUM_ACTIVITY_TYPES,
} from '../../../../src/service/policy/index.js'
import type { PolicyContext, PolicyUser } from '../../../../src/service/policy/types/namespaces.js'

const user = (id: string, tags: string[] = []): PolicyUser => ({ id, tags })
const ALICE = user('alice', ['ops'])
const BOB = user('bob', ['ops'])
const CAROL = user('carol', ['ops'])

function policy(
  policyId: string,
  effect: 'EFFECT_ALLOW' | 'EFFECT_DENY',
  p: { condition?: string; consensus?: string; time?: string },
): DecisionPolicy {
  const r = parsePolicy(p)
  if (!r.ok) throw new Error(r.error.message)
  return { policyId, effect, parsed: r.policy }
}

function signing(to: string, approvers: PolicyUser[] = [ALICE]): PolicyContext {
  return {
    approvers,
    credentials: [],
    activity: { type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2', kind: 'SIGN_TRANSACTION', resource: 'PRIVATE_KEY', action: 'SIGN', params: {} },
    eth: { tx: { to, value: 1n, chain_id: 1n } },
    now: new Date('2026-03-10T15:00:00Z'),
  }
}

const ALLOW_TO_A = policy('allow-a', 'EFFECT_ALLOW', { condition: "eth.tx.to == '0xa'", consensus: "approvers.any(u, u.id == 'alice')" })
const DENY_EXPORT = policy('deny-export', 'EFFECT_DENY', { condition: "activity.action == 'EXPORT'" })

describe('decide', () => {
  it('a root quorum is allowed without evaluating policies', () => {
    const d = decide([DENY_EXPORT, policy('deny-all', 'EFFECT_DENY', {})], signing('0xb'), { rootQuorum: true })
    expect(d).toEqual({ outcome: 'OUTCOME_ALLOW', reason: 'ROOT_QUORUM', policyIds: [], evaluations: [] })
  })

  it('no policy → implicit deny', () => {
    expect(decide([], signing('0xa'), { rootQuorum: false })).toMatchObject({ outcome: 'OUTCOME_DENY_IMPLICIT', reason: 'IMPLICIT_DENY' })
  })

  it('an applicable ALLOW allows; one that does not apply leaves an implicit deny', () => {
    const yes = decide([ALLOW_TO_A, DENY_EXPORT], signing('0xa'), { rootQuorum: false })
    expect(yes).toMatchObject({ outcome: 'OUTCOME_ALLOW', reason: 'POLICY_ALLOW', policyIds: ['allow-a'] })
    expect(yes.evaluations.map((e) => [e.policyId, e.outcome])).toEqual([
      ['allow-a', 'OUTCOME_ALLOW'],
      ['deny-export', 'OUTCOME_DENY_IMPLICIT'],
    ])
    expect(decide([ALLOW_TO_A], signing('0xb'), { rootQuorum: false })).toMatchObject({ outcome: 'OUTCOME_DENY_IMPLICIT' })
  })

  it('explicit deny beats allow', () => {
    const denyBig = policy('deny-big', 'EFFECT_DENY', { condition: 'eth.tx.value > 0' })
    const d = decide([ALLOW_TO_A, denyBig], signing('0xa'), { rootQuorum: false })
    expect(d).toMatchObject({ outcome: 'OUTCOME_DENY_EXPLICIT', reason: 'EXPLICIT_DENY', policyIds: ['deny-big'] })
  })

  it('a DENY whose consensus names other users does not apply', () => {
    const denyOps = policy('deny-ops', 'EFFECT_DENY', {
      condition: "activity.action == 'SIGN'",
      consensus: "approvers.any(u, u.tags.contains('ops'))",
    })
    expect(decide([ALLOW_TO_A, denyOps], signing('0xa'), { rootQuorum: false }).outcome).toBe('OUTCOME_DENY_EXPLICIT')
    const allowAnyone = policy('allow-any', 'EFFECT_ALLOW', { condition: "activity.action == 'SIGN'" })
    expect(decide([allowAnyone, denyOps], signing('0xa', [user('dave')]), { rootQuorum: false }).outcome).toBe('OUTCOME_ALLOW')
  })

  it('2-of-3 consensus: one approval → REQUIRES_CONSENSUS, two → ALLOW', () => {
    const twoOfThree = policy('two-of-three', 'EFFECT_ALLOW', {
      condition: "activity.kind == 'SIGN_TRANSACTION'",
      consensus: "approvers.filter(u, u.id in ['alice', 'bob', 'carol']).count() >= 2",
    })
    const one = decide([twoOfThree], signing('0xa', [ALICE]), { rootQuorum: false })
    expect(one).toMatchObject({ outcome: 'OUTCOME_REQUIRES_CONSENSUS', reason: 'CONSENSUS_NEEDED', policyIds: ['two-of-three'] })
    expect(decide([twoOfThree], signing('0xa', [ALICE, CAROL]), { rootQuorum: false }).outcome).toBe('OUTCOME_ALLOW')
    expect(decide([twoOfThree], signing('0xa', [ALICE, user('mallory')]), { rootQuorum: false }).outcome).toBe('OUTCOME_REQUIRES_CONSENSUS')
    // An explicit deny still wins over a policy that is waiting for votes.
    expect(decide([twoOfThree, policy('deny', 'EFFECT_DENY', {})], signing('0xa', [ALICE, BOB]), { rootQuorum: false }).outcome).toBe(
      'OUTCOME_DENY_EXPLICIT',
    )
  })

  it('a policy whose expression errors is OUTCOME_ERROR and does not apply, ALLOW or DENY', () => {
    const allowErr = policy('allow-err', 'EFFECT_ALLOW', { condition: "wallet.id == 'w' || private_key.id == 'k'" })
    const denyErr = policy('deny-err', 'EFFECT_DENY', { condition: "activity.params.hash_function == 'HASH_FUNCTION_NO_OP'" })
    const d = decide([allowErr, denyErr], signing('0xa'), { rootQuorum: false })
    expect(d.outcome).toBe('OUTCOME_DENY_IMPLICIT')
    expect(d.evaluations).toMatchObject([
      { policyId: 'allow-err', outcome: 'OUTCOME_ERROR', error: { code: 'MISSING_FIELD', expression: 'condition' } },
      { policyId: 'deny-err', outcome: 'OUTCOME_ERROR', error: { code: 'MISSING_FIELD', expression: 'condition' } },
    ])
    expect(decide([ALLOW_TO_A, denyErr], signing('0xa'), { rootQuorum: false }).outcome).toBe('OUTCOME_ALLOW')
  })

  it('a mismatched comparison at evaluation time denies (never throws)', () => {
    const weird = policy('weird', 'EFFECT_ALLOW', { condition: "eth.tx.contract_call_args['amount'] < 5" })
    const ctx = { ...signing('0xa'), eth: { tx: { to: '0xa', contract_call_args: { amount: 'five' } } } }
    expect(decide([weird], ctx, { rootQuorum: false })).toMatchObject({
      outcome: 'OUTCOME_DENY_IMPLICIT',
      evaluations: [{ outcome: 'OUTCOME_ERROR', error: { code: 'TYPE_MISMATCH' } }],
    })
  })

  it('a time-inactive policy is skipped: neither allows nor denies', () => {
    const later = "time.now >= Timestamp('2027-01-01T00:00:00Z')"
    const d = decide([policy('deny-later', 'EFFECT_DENY', { time: later }), ALLOW_TO_A], signing('0xa'), { rootQuorum: false })
    expect(d.outcome).toBe('OUTCOME_ALLOW')
    expect(d.evaluations[0]).toMatchObject({ policyId: 'deny-later', outcome: 'OUTCOME_TIME_INACTIVE' })
    const allowLater = policy('allow-later', 'EFFECT_ALLOW', { time: later })
    expect(decide([allowLater], signing('0xa'), { rootQuorum: false }).outcome).toBe('OUTCOME_DENY_IMPLICIT')
  })

  it('an exhausted step budget denies, even when another policy allows', () => {
    const list = `[${Array.from({ length: 100 }, (_, i) => i).join(',')}]`
    const costly = policy('costly', 'EFFECT_ALLOW', { condition: `${list}.all(a, ${list}.all(b, ${list}.any(c, c == a)))` })
    const d = decide([ALLOW_TO_A, costly], signing('0xa'), { rootQuorum: false, stepBudget: 10_000 })
    expect(d).toMatchObject({ outcome: 'OUTCOME_ERROR', reason: 'EVALUATION_BUDGET_EXCEEDED', policyIds: ['costly'] })
    expect(d.evaluations[1]).toMatchObject({ outcome: 'OUTCOME_ERROR', error: { code: 'EVALUATION_BUDGET_EXCEEDED' } })
  })

  it('the total budget bounds many policies together', () => {
    const many = Array.from({ length: 100 }, (_, i) =>
      policy(`p${i}`, 'EFFECT_ALLOW', { condition: "[1,2,3,4,5,6,7,8,9].all(x, x > 0) && eth.tx.to == '0xz'" }),
    )
    expect(decide(many, signing('0xa'), { rootQuorum: false }).outcome).toBe('OUTCOME_DENY_IMPLICIT')
    expect(decide(many, signing('0xa'), { rootQuorum: false, totalStepBudget: 500 })).toMatchObject({
      reason: 'EVALUATION_BUDGET_EXCEEDED',
    })
  })
})

describe('activity namespace helpers', () => {
  it.each([
    ['ACTIVITY_TYPE_SIGN_TRANSACTION_V2', 'SIGN_TRANSACTION', 'PRIVATE_KEY', 'SIGN'],
    ['ACTIVITY_TYPE_SIGN_TRANSACTION', 'SIGN_TRANSACTION', 'PRIVATE_KEY', 'SIGN'],
    ['ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7', 'CREATE_SUB_ORGANIZATION', 'ORGANIZATION', 'CREATE'],
    ['ACTIVITY_TYPE_ETH_SEND_TRANSACTION', 'ETH_SEND_TRANSACTION', 'PRIVATE_KEY', 'SIGN'],
    ['ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT', 'EXPORT_WALLET_ACCOUNT', 'WALLET', 'EXPORT'],
    ['ACTIVITY_TYPE_CREATE_API_KEYS_V2', 'CREATE_API_KEYS', 'CREDENTIAL', 'CREATE'],
    ['ACTIVITY_TYPE_VERIFY_OTP', 'VERIFY_OTP', 'OTP', 'VERIFY'],
    ['ACTIVITY_TYPE_CREATE_POLICIES', 'CREATE_POLICIES', 'POLICY', 'CREATE'],
  ])('%s → kind %s, %s / %s', (type, kind, resource, action) => {
    expect(activityKind(type)).toBe(kind)
    expect(activityResourceAction(type)).toEqual({ resource, action })
  })

  it('root-quorum-only activities are listed', () => {
    expect(ROOT_QUORUM_ACTIVITY_TYPES.has('ACTIVITY_TYPE_UPDATE_ROOT_QUORUM')).toBe(true)
    expect(ROOT_QUORUM_ACTIVITY_TYPES.has('ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE')).toBe(true)
    expect(activityKind('ACTIVITY_TYPE_UPDATE_ROOT_QUORUM')).toBe('UPDATE_ROOT_QUORUM')
    expect(activityResourceAction('ACTIVITY_TYPE_UNKNOWN_THING')).toBeUndefined()
  })
})
