import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newApiKey } from './helpers/keys.js'
import { clientFor, startPolicyOrg } from './helpers/policyOrg.js'
import { submitBody, type TestService } from './helpers/service.js'

const people = ['bob', 'carol', 'dave', 'erin'] as const
type Person = (typeof people)[number]
let svc: TestService
let admin: TurnkeyClient
let root: string
let address: string
let keys: Record<Person, ReturnType<typeof newApiKey>>
let ids: Record<Person, string>
let clients: Record<Person, TurnkeyClient>

const now = () => String(Date.now())
const _clientOf = (k: { publicKey: string; privateKeyHex: string }) => clientFor(svc, k)

beforeAll(async () => {
  ;({ svc, root, admin, keys, ids, clients, address } = await startPolicyOrg(people, 'treasury'))
})
afterAll(async () => {
  await svc?.stop()
})

async function createPolicy(
  policyName: string,
  effect: 'EFFECT_ALLOW' | 'EFFECT_DENY',
  condition: string,
  consensus = '',
): Promise<string> {
  const r = await admin.createPolicy({
    type: 'ACTIVITY_TYPE_CREATE_POLICY_V3',
    timestampMs: now(),
    organizationId: root,
    parameters: { policyName, effect, condition, consensus, notes: '' },
  })
  return r.activity.result.createPolicyResult?.policyId as string
}

async function deletePolicy(policyId: string) {
  await admin.deletePolicy({ type: 'ACTIVITY_TYPE_DELETE_POLICY', timestampMs: now(), organizationId: root, parameters: { policyId } })
}

const sign = (
  who: Person,
  payload = 'ab'.repeat(32),
  encoding: 'PAYLOAD_ENCODING_HEXADECIMAL' | 'PAYLOAD_ENCODING_TEXT_UTF8' = 'PAYLOAD_ENCODING_HEXADECIMAL',
) =>
  clients[who].signRawPayload({
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
    timestampMs: now(),
    organizationId: root,
    parameters: {
      signWith: address,
      payload,
      encoding,
      hashFunction: encoding === 'PAYLOAD_ENCODING_HEXADECIMAL' ? 'HASH_FUNCTION_NO_OP' : 'HASH_FUNCTION_SHA256',
    },
  })

const evaluations = async (activityId: string) => (await admin.getPolicyEvaluations({ organizationId: root, activityId })).policyEvaluations

const outcomeOf = (e: { policyEvaluations: Array<{ policyId?: string; outcome?: string }> }, policyId: string) =>
  e.policyEvaluations.find((x) => x.policyId === policyId)?.outcome

const SIGNING = "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN'"

describe('policy evaluation for users outside the root quorum', () => {
  it('implicit deny: the activity waits for the root quorum, which can still approve it', async () => {
    const unrelated = await createPolicy('wallets only', 'EFFECT_ALLOW', "activity.type == 'ACTIVITY_TYPE_DELETE_WALLETS'")
    const res = await sign('bob')
    expect(res.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect(res.activity.result.signRawPayloadResult).toBeUndefined()
    const [first] = await evaluations(res.activity.id)
    expect(first).toMatchObject({ activityId: res.activity.id, organizationId: root, voteId: expect.any(String) })
    expect(outcomeOf(first!, unrelated)).toBe('OUTCOME_DENY_IMPLICIT')
    expect(res.activity.votes.map((v) => v.userId)).toEqual([ids.bob])
    expect(first!.voteId).toBe(res.activity.votes[0]?.id)

    // A second user outside the quorum cannot push it through; the root quorum can (rule 1).
    const carol = await clients.carol.approveActivity({
      type: 'ACTIVITY_TYPE_APPROVE_ACTIVITY',
      timestampMs: now(),
      organizationId: root,
      parameters: { fingerprint: res.activity.fingerprint },
    })
    expect(carol.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    const approved = await admin.approveActivity({
      type: 'ACTIVITY_TYPE_APPROVE_ACTIVITY',
      timestampMs: now(),
      organizationId: root,
      parameters: { fingerprint: res.activity.fingerprint },
    })
    expect(approved.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(approved.activity.result.signRawPayloadResult?.r).toMatch(/^[0-9a-f]{64}$/i)
    expect(await evaluations(res.activity.id)).toHaveLength(2)
    await deletePolicy(unrelated)
  })

  it('an ALLOW policy lets its user sign; an explicit DENY beats it (403 POLICY_DENIED, FAILED, recorded)', async () => {
    const allow = await createPolicy('bob signs', 'EFFECT_ALLOW', SIGNING, `approvers.any(user, user.id == '${ids.bob}')`)
    const ok = await sign('bob')
    expect(ok.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(ok.activity.result.signRawPayloadResult?.s).toMatch(/^[0-9a-f]{64}$/i)
    expect(outcomeOf((await evaluations(ok.activity.id))[0]!, allow)).toBe('OUTCOME_ALLOW')

    // Another user is not named by the consensus: it waits (an ALLOW awaiting its consensus).
    const other = await sign('erin')
    expect(other.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect(outcomeOf((await evaluations(other.activity.id))[0]!, allow)).toBe('OUTCOME_REQUIRES_CONSENSUS')

    const payload = 'hello'
    const deny = await createPolicy('no text payloads', 'EFFECT_DENY', "activity.params.encoding == 'PAYLOAD_ENCODING_TEXT_UTF8'")
    const denied = await sign('bob', payload, 'PAYLOAD_ENCODING_TEXT_UTF8').catch((e) => e)
    expect(denied).toMatchObject({ code: 7 })
    expect(String(denied.message)).toContain('OUTCOME_DENY_EXPLICIT')
    expect(String(denied.message)).toContain('no text payloads')
    const raw = await svc.post(
      '/public/v1/submit/sign_raw_payload',
      submitBody('ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', root, {
        signWith: address,
        payload: 'hello again',
        encoding: 'PAYLOAD_ENCODING_TEXT_UTF8',
        hashFunction: 'HASH_FUNCTION_SHA256',
      }),
      keys.bob.stamper,
    )
    expect(raw.status).toBe(403)
    const info = raw.json.details.find((d: any) => d['@type'] === 'type.googleapis.com/sigil.ErrorInfo')
    expect(info.reason).toBe('POLICY_DENIED')
    const activity = raw.json.details.find((d: any) => d['@type'] === 'type.googleapis.com/sigil.ActivityInfo')
    expect(activity.status).toBe('ACTIVITY_STATUS_FAILED')
    const [e] = await evaluations(activity.activityId)
    expect(outcomeOf(e!, deny)).toBe('OUTCOME_DENY_EXPLICIT')
    expect(outcomeOf(e!, allow)).toBe('OUTCOME_ALLOW')

    // Other payloads are still allowed; the root quorum is never evaluated.
    expect((await sign('bob')).activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const byAdmin = await admin.signRawPayload({
      type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
      timestampMs: now(),
      organizationId: root,
      parameters: { signWith: address, payload, encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_SHA256' },
    })
    expect(byAdmin.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(await evaluations(byAdmin.activity.id)).toEqual([])

    // A record keeps every policy it went over, in the organization's order, after they are deleted.
    const recorded = await evaluations(activity.activityId)
    const order = recorded[0]!.policyEvaluations.map((x) => x.policyId)
    expect(order.indexOf(allow)).toBeGreaterThanOrEqual(0)
    expect(order.indexOf(deny)).toBeGreaterThan(order.indexOf(allow))
    await deletePolicy(deny)
    await deletePolicy(allow)
    expect(await evaluations(activity.activityId)).toEqual(recorded)
    expect(outcomeOf((await evaluations(ok.activity.id))[0]!, allow)).toBe('OUTCOME_ALLOW')
  })

  it('a 2-of-3 approvers consensus completes through approvals; a rejection ends it REJECTED', async () => {
    const three = [ids.carol, ids.dave, ids.erin].map((id) => `user.id == '${id}'`).join(' || ')
    const policy = await createPolicy('two of three sign', 'EFFECT_ALLOW', SIGNING, `approvers.filter(user, ${three}).count() >= 2`)
    const res = await sign('bob')
    expect(res.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    const approve = (who: Person, fingerprint: string) =>
      clients[who].approveActivity({
        type: 'ACTIVITY_TYPE_APPROVE_ACTIVITY',
        timestampMs: now(),
        organizationId: root,
        parameters: { fingerprint },
      })
    const one = await approve('carol', res.activity.fingerprint)
    expect(one.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    const two = await approve('dave', res.activity.fingerprint)
    expect(two.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(two.activity.result.signRawPayloadResult?.r).toMatch(/^[0-9a-f]{64}$/i)
    const evals = await evaluations(res.activity.id)
    expect(evals.map((e) => outcomeOf(e, policy))).toEqual(['OUTCOME_REQUIRES_CONSENSUS', 'OUTCOME_REQUIRES_CONSENSUS', 'OUTCOME_ALLOW'])
    const votes = (await admin.getActivity({ organizationId: root, activityId: res.activity.id })).activity.votes
    expect(evals.map((e) => e.voteId)).toEqual(votes.map((v) => v.id))
    // A vote after completion is refused.
    const late = await approve('erin', res.activity.fingerprint).catch((e) => e)
    expect(late).toMatchObject({ code: 9 })

    const again = await sign('bob', 'ef'.repeat(32))
    const rejected = await clients.erin.rejectActivity({
      type: 'ACTIVITY_TYPE_REJECT_ACTIVITY',
      timestampMs: now(),
      organizationId: root,
      parameters: { fingerprint: again.activity.fingerprint },
    })
    expect(rejected.activity.status).toBe('ACTIVITY_STATUS_REJECTED')
    const stillRejected = await approve('carol', again.activity.fingerprint).catch((e) => e)
    expect(stillRejected).toMatchObject({ code: 9 })
    await deletePolicy(policy)
  })

  it('policy management stays with the root quorum, whatever the policies say', async () => {
    const everything = await createPolicy('everything for bob', 'EFFECT_ALLOW', '', `approvers.any(user, user.id == '${ids.bob}')`)
    const r = await clients.bob.createPolicy({
      type: 'ACTIVITY_TYPE_CREATE_POLICY_V3',
      timestampMs: now(),
      organizationId: root,
      parameters: { policyName: 'self-granted', effect: 'EFFECT_ALLOW', condition: 'true', notes: '' },
    })
    expect(r.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect(await evaluations(r.activity.id)).toEqual([])
    // Yet the same policy allows bob's other activities.
    const wallet = await clients.bob.createWallet({
      type: 'ACTIVITY_TYPE_CREATE_WALLET',
      timestampMs: now(),
      organizationId: root,
      parameters: { walletName: 'bob', accounts: [] },
    })
    expect(wallet.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    await deletePolicy(everything)
  })
})
