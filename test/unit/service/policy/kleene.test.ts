/**
 * The last gap by which a policy could be passed: a DENY policy must not be skipped because an operand unrelated to
 * the decision is missing. The language does not short circuit, so one missing field anywhere made
 * the whole DENY "missing", and a missing DENY does not apply: a ComputeBudget instruction (no IDL,
 * no `parsed_instruction_data`) ahead of a large IDL-decoded deposit hid the deposit from a DENY on
 * its amount. A DENY whose evaluation ends in `MISSING_FIELD` is evaluated again in three-valued
 * (Kleene) logic: definitely true denies, any other error on the way denies (fail closed), unknown
 * does not apply. ALLOW policies are unchanged: an ALLOW never allows on a missing field.
 */
import { describe, expect, it } from 'vitest'
import { type DecisionPolicy, decide, evaluate, parsePolicy, Unreadable } from '../../../../src/service/policy/index.js'
import type { PolicyContext, PolicySolanaInstruction } from '../../../../src/service/policy/types/namespaces.js'

function policy(policyId: string, effect: 'EFFECT_ALLOW' | 'EFFECT_DENY', condition: string, consensus?: string): DecisionPolicy {
  const r = parsePolicy(consensus === undefined ? { condition } : { condition, consensus })
  if (!r.ok) throw new Error(r.error.message)
  return { policyId, effect, parsed: r.policy }
}

const VAULT = 'Vau1t11111111111111111111111111111111111111'
const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111'
const PAYER = 'Payer111111111111111111111111111111111111111'

/** An instruction to a program without an uploaded IDL: no `parsed_instruction_data` at all. */
const computeBudget = (): PolicySolanaInstruction => ({
  program_key: COMPUTE_BUDGET,
  accounts: [],
  instruction_data_hex: '0240420f00',
  address_table_lookups: [],
})
/** A vault `deposit` the uploaded IDL decodes (or whose arguments it declares but cannot decode). */
const deposit = (amount: bigint | Unreadable): PolicySolanaInstruction => ({
  program_key: VAULT,
  accounts: [{ account_key: PAYER, signer: true, writable: true }],
  instruction_data_hex: 'f223c68952e1f2b6',
  address_table_lookups: [],
  parsed_instruction_data: {
    instruction_name: 'deposit',
    discriminator: 'f223c68952e1f2b6',
    program_call_args: amount instanceof Unreadable ? amount : { amount },
  },
})

const base: PolicyContext = {
  approvers: [{ id: 'bob', tags: [] }],
  credentials: [],
  activity: {
    type: 'ACTIVITY_TYPE_SIGN_TRANSACTION_V2',
    kind: 'SIGN_TRANSACTION',
    resource: 'WALLET',
    action: 'SIGN',
    params: { type: 'TRANSACTION_TYPE_SOLANA' },
  },
  wallet: { id: 'w-1', imported: false, exported: false, label: 'signer' },
  now: new Date('2026-03-10T15:00:00Z'),
}

const solana = (...instructions: PolicySolanaInstruction[]): PolicyContext => ({
  ...base,
  solana: {
    tx: {
      account_keys: [PAYER, VAULT],
      program_keys: instructions.map((i) => i.program_key),
      instructions,
      transfers: [],
      recent_blockhash: '11111111111111111111111111111111',
      spl_transfers: [],
      address_table_lookups: [],
    },
  },
})

const ALLOW_SIGN = policy('allow-sign', 'EFFECT_ALLOW', "activity.action == 'SIGN'")
const NO_LARGE_DEPOSITS = policy(
  'no-large-deposits',
  'EFFECT_DENY',
  `solana.tx.instructions.any(i, i.program_key == '${VAULT}' && i.parsed_instruction_data.program_call_args['amount'] > 100)`,
)
const UNREADABLE_ARGS = new Unreadable('the uploaded IDL declares the instruction, but its arguments do not decode')
const run = (policies: DecisionPolicy[], ctx: PolicyContext, stepBudget?: number) =>
  decide(policies, ctx, stepBudget === undefined ? { rootQuorum: false } : { rootQuorum: false, stepBudget })
const deny = (condition: string) => policy('deny', 'EFFECT_DENY', condition)

describe('a DENY is not skipped for an operand the decision does not need', () => {
  it('Solana: a ComputeBudget instruction (no IDL) ahead of a large decoded deposit does not hide it', () => {
    for (const ctx of [solana(computeBudget(), deposit(10n ** 12n)), solana(deposit(10n ** 12n), computeBudget())]) {
      const d = run([ALLOW_SIGN, NO_LARGE_DEPOSITS], ctx)
      expect(d).toMatchObject({ outcome: 'OUTCOME_DENY_EXPLICIT', reason: 'EXPLICIT_DENY', policyIds: ['no-large-deposits'] })
      expect(d.evaluations[1]).toMatchObject({ policyId: 'no-large-deposits', outcome: 'OUTCOME_DENY_EXPLICIT' })
      expect(d.evaluations[1]?.error).toBeUndefined()
    }
    // A small deposit beside it: the DENY definitely does not apply (no longer an error record).
    const small = run([ALLOW_SIGN, NO_LARGE_DEPOSITS], solana(computeBudget(), deposit(100n)))
    expect(small).toMatchObject({ outcome: 'OUTCOME_ALLOW', reason: 'POLICY_ALLOW', policyIds: ['allow-sign'] })
    expect(small.evaluations[1]).toMatchObject({ outcome: 'OUTCOME_DENY_IMPLICIT' })
    // No deposit at all: nothing to deny.
    expect(run([ALLOW_SIGN, NO_LARGE_DEPOSITS], solana(computeBudget())).outcome).toBe('OUTCOME_ALLOW')
  })

  it('Solana: an earlier missing field does not hide a deposit whose arguments do not decode (fail closed)', () => {
    const d = run([ALLOW_SIGN, NO_LARGE_DEPOSITS], solana(computeBudget(), deposit(UNREADABLE_ARGS)))
    expect(d).toMatchObject({ outcome: 'OUTCOME_ERROR', reason: 'DENY_POLICY_ERROR', policyIds: ['no-large-deposits'] })
    expect(d.evaluations[1]).toMatchObject({ outcome: 'OUTCOME_ERROR', error: { code: 'UNREADABLE_FIELD', expression: 'condition' } })
  })

  it("'&&' whose first operand is missing: false if another is false, unknown (skipped) if the others are true", () => {
    // No eth namespace at all: `eth.tx.to` is missing.
    const falseRest = run([ALLOW_SIGN, deny("eth.tx.to == '0xbad' && activity.action == 'EXPORT'")], base)
    expect(falseRest.outcome).toBe('OUTCOME_ALLOW')
    expect(falseRest.evaluations[1]).toMatchObject({ outcome: 'OUTCOME_DENY_IMPLICIT' })
    const trueRest = run([ALLOW_SIGN, deny("eth.tx.to == '0xbad' && activity.action == 'SIGN'")], base)
    expect(trueRest.outcome).toBe('OUTCOME_ALLOW')
    expect(trueRest.evaluations[1]).toMatchObject({ outcome: 'OUTCOME_ERROR', error: { code: 'MISSING_FIELD' } })
    // The docs' "does not short circuit" stays: a false operand first does not hide a missing one.
    const falseFirst = run([ALLOW_SIGN, deny("activity.action == 'EXPORT' && eth.tx.to == '0xbad'")], base)
    expect(falseFirst.outcome).toBe('OUTCOME_ALLOW')
    expect(falseFirst.evaluations[1]).toMatchObject({ outcome: 'OUTCOME_DENY_IMPLICIT' })
  })

  it("'&&' / '||' whose first operand is missing do not hide an unreadable one after it", () => {
    const ctx: PolicyContext = { ...base, eth: { tx: new Unreadable('the Ethereum transaction does not parse') } }
    for (const condition of [
      "private_key.id == 'k' && eth.tx.to == '0xbad'",
      "private_key.id == 'k' || eth.tx.to == '0xbad'",
      "private_key.id == 'k' && activity.action == 'EXPORT' && eth.tx.to == '0xbad'",
      "[private_key.id, eth.tx.to].contains('0xbad')",
      'private_key.id == eth.tx.to',
    ]) {
      const d = run([ALLOW_SIGN, deny(condition)], ctx)
      expect(d, condition).toMatchObject({ outcome: 'OUTCOME_ERROR', reason: 'DENY_POLICY_ERROR', policyIds: ['deny'] })
      expect(d.evaluations[1], condition).toMatchObject({ error: { code: 'UNREADABLE_FIELD' } })
    }
    // Nor a type error (what the same DENY would hit were the missing field present).
    const mistyped: PolicyContext = { ...base, eth: { tx: { to: '0xa', contract_call_args: { amount: 'five' } } } }
    const typo = run([ALLOW_SIGN, deny("private_key.id == 'k' || eth.tx.contract_call_args['amount'] > 3")], mistyped)
    expect(typo).toMatchObject({ outcome: 'OUTCOME_ERROR', reason: 'DENY_POLICY_ERROR' })
    expect(typo.evaluations[1]).toMatchObject({ error: { code: 'TYPE_MISMATCH' } })
  })

  it("'||' with a missing operand: true if another is true, unknown (skipped) if the others are false", () => {
    // The docs' `wallet.id == … || private_key.id == …`: signing with wallet w-1 carries no private_key.
    for (const condition of ["wallet.id == 'w-1' || private_key.id == 'k'", "private_key.id == 'k' || wallet.id == 'w-1'"]) {
      const d = run([ALLOW_SIGN, deny(condition)], base)
      expect(d, condition).toMatchObject({ outcome: 'OUTCOME_DENY_EXPLICIT', policyIds: ['deny'] })
    }
    const otherWallet = run([ALLOW_SIGN, deny("private_key.id == 'k' || wallet.id == 'w-2'")], base)
    expect(otherWallet.outcome).toBe('OUTCOME_ALLOW')
    expect(otherWallet.evaluations[1]).toMatchObject({ outcome: 'OUTCOME_ERROR', error: { code: 'MISSING_FIELD' } })
  })

  it('a comparison or negation with a missing operand is unknown, never true or false', () => {
    for (const condition of [
      "private_key.id != 'k'",
      "!(private_key.id == 'k')",
      "private_key.id != 'k' || false",
      "private_key.id in ['k']",
    ]) {
      const d = run([ALLOW_SIGN, deny(condition)], base)
      expect(d.outcome, condition).toBe('OUTCOME_ALLOW')
      expect(d.evaluations[1], condition).toMatchObject({ outcome: 'OUTCOME_ERROR', error: { code: 'MISSING_FIELD' } })
    }
  })

  it('any(…) over members with a missing field: true if one is true, unknown if none is true and one is unknown', () => {
    const noGuard = deny("solana.tx.instructions.any(i, i.parsed_instruction_data.program_call_args['amount'] > 100)")
    expect(run([ALLOW_SIGN, noGuard], solana(computeBudget(), deposit(500n))).outcome).toBe('OUTCOME_DENY_EXPLICIT')
    const unknown = run([ALLOW_SIGN, noGuard], solana(computeBudget(), deposit(5n)))
    expect(unknown.outcome).toBe('OUTCOME_ALLOW')
    expect(unknown.evaluations[1]).toMatchObject({ outcome: 'OUTCOME_ERROR', error: { code: 'MISSING_FIELD' } })
    // A missing list is unknown whatever the predicate.
    expect(run([ALLOW_SIGN, deny('solana.tx.instructions.any(i, true)')], base).outcome).toBe('OUTCOME_ALLOW')
  })

  it('all(…) over members with a missing field: false if one is false, unknown if none is false and one is unknown', () => {
    const all = deny("solana.tx.instructions.all(i, i.parsed_instruction_data.program_call_args['amount'] > 100)")
    const falseOne = run([ALLOW_SIGN, all], solana(computeBudget(), deposit(5n)))
    expect(falseOne.outcome).toBe('OUTCOME_ALLOW')
    expect(falseOne.evaluations[1]).toMatchObject({ outcome: 'OUTCOME_DENY_IMPLICIT' })
    const unknown = run([ALLOW_SIGN, all], solana(computeBudget(), deposit(500n)))
    expect(unknown.outcome).toBe('OUTCOME_ALLOW')
    expect(unknown.evaluations[1]).toMatchObject({ outcome: 'OUTCOME_ERROR', error: { code: 'MISSING_FIELD' } })
    expect(run([ALLOW_SIGN, all], solana(deposit(500n), deposit(101n))).outcome).toBe('OUTCOME_DENY_EXPLICIT')
    // A negated all(…) with a false member is definitely true.
    const notAll = deny("!solana.tx.instructions.all(i, i.parsed_instruction_data.program_call_args['amount'] <= 100)")
    expect(run([ALLOW_SIGN, notAll], solana(computeBudget(), deposit(500n))).outcome).toBe('OUTCOME_DENY_EXPLICIT')
    // Members after the deciding one are still read: an unreadable one denies.
    expect(run([ALLOW_SIGN, all], solana(computeBudget(), deposit(5n), deposit(UNREADABLE_ARGS))).outcome).toBe('OUTCOME_ERROR')
  })

  it('a consensus is part of the applicability: a definitely true condition with a false consensus does not deny', () => {
    const withConsensus = policy(
      'deny',
      'EFFECT_DENY',
      "private_key.id == 'k' || wallet.id == 'w-1'",
      "approvers.any(u, u.id == 'mallory')",
    )
    const d = run([ALLOW_SIGN, withConsensus], base)
    expect(d.outcome).toBe('OUTCOME_ALLOW')
    expect(d.evaluations[1]).toMatchObject({ outcome: 'OUTCOME_DENY_IMPLICIT' })
    const bob = policy('deny', 'EFFECT_DENY', "private_key.id == 'k' || wallet.id == 'w-1'", "approvers.any(u, u.id == 'bob')")
    expect(run([ALLOW_SIGN, bob], base).outcome).toBe('OUTCOME_DENY_EXPLICIT')
  })
})

describe('the re-evaluation is bounded and ALLOW policies are unchanged', () => {
  it('the three-valued pass counts toward the step budget; over budget denies', () => {
    // The normal pass stops at the missing `private_key` after a few steps; the three-valued pass reads the rest.
    const costly = deny(`private_key.id == 'k' && [${Array.from({ length: 200 }, (_, i) => i).join(', ')}].all(x, x >= 0)`)
    const ctx = solana(computeBudget())
    const first = evaluate(costly.parsed.condition as NonNullable<typeof costly.parsed.condition>, ctx)
    expect(first).toMatchObject({ ok: false, error: { code: 'MISSING_FIELD' } })
    const generous = run([costly], ctx)
    expect(generous.evaluations[0]).toMatchObject({ outcome: 'OUTCOME_ERROR', error: { code: 'MISSING_FIELD' } })
    expect(generous.evaluations[0]?.steps).toBeGreaterThan(first.steps + 400)
    const tight = run([ALLOW_SIGN, costly], ctx, first.steps + 100)
    expect(tight).toMatchObject({ outcome: 'OUTCOME_ERROR', reason: 'EVALUATION_BUDGET_EXCEEDED', policyIds: ['deny'] })
    expect(tight.evaluations[1]).toMatchObject({ error: { code: 'EVALUATION_BUDGET_EXCEEDED' } })
  })

  it('an ALLOW never allows on a missing operand, nor is it evaluated twice', () => {
    const allowEither = policy('allow-either', 'EFFECT_ALLOW', "wallet.id == 'w-1' || private_key.id == 'k'")
    const d = run([allowEither], base)
    expect(d).toMatchObject({ outcome: 'OUTCOME_DENY_IMPLICIT', reason: 'IMPLICIT_DENY' })
    expect(d.evaluations[0]).toMatchObject({ outcome: 'OUTCOME_ERROR', error: { code: 'MISSING_FIELD', expression: 'condition' } })
    const once = evaluate(allowEither.parsed.condition as NonNullable<typeof allowEither.parsed.condition>, base)
    expect(d.evaluations[0]?.steps).toBe(once.steps)
    const allowDeposits = policy(
      'allow-deposits',
      'EFFECT_ALLOW',
      `solana.tx.instructions.any(i, i.program_key == '${VAULT}' && i.parsed_instruction_data.program_call_args['amount'] <= 100)`,
    )
    expect(run([allowDeposits], solana(computeBudget(), deposit(5n))).outcome).toBe('OUTCOME_DENY_IMPLICIT')
    // The public evaluate() keeps the language's two-valued semantics.
    expect(evaluate(allowEither.parsed.condition as NonNullable<typeof allowEither.parsed.condition>, base)).toMatchObject({
      ok: false,
      error: { code: 'MISSING_FIELD' },
    })
  })

  it('a DENY that evaluates without error is evaluated once', () => {
    const d = run([NO_LARGE_DEPOSITS], solana(deposit(5n)))
    const once = evaluate(NO_LARGE_DEPOSITS.parsed.condition as NonNullable<typeof NO_LARGE_DEPOSITS.parsed.condition>, solana(deposit(5n)))
    expect(d.evaluations[0]).toMatchObject({ outcome: 'OUTCOME_DENY_IMPLICIT', steps: once.steps })
  })
})
