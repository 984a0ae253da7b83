import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPolicyOrg } from './helpers/policyOrg.js'
import { submitBody, type TestService } from './helpers/service.js'

const people = ['bob', 'carol', 'dave'] as const
type Person = (typeof people)[number]
let svc: TestService
let admin: TurnkeyClient
let root: string
let address: string
let ids: Record<Person, string>
let clients: Record<Person, TurnkeyClient>
const now = () => String(Date.now())

beforeAll(async () => {
  ;({ svc, root, admin, ids, clients, address } = await startPolicyOrg(people, 'edge'))
})
afterAll(async () => {
  await svc?.stop()
})

const SIGNING = "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN'"
const countPolicies = async () => (await admin.getPolicies({ organizationId: root })).policies.length

async function createPolicy(policyName: string, effect: 'EFFECT_ALLOW' | 'EFFECT_DENY', condition: string, consensus = '') {
  const r = await admin.createPolicy({
    type: 'ACTIVITY_TYPE_CREATE_POLICY_V3',
    timestampMs: now(),
    organizationId: root,
    parameters: { policyName, effect, condition, consensus, notes: '' },
  })
  expect(r.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  return r.activity.result.createPolicyResult?.policyId as string
}
const deletePolicy = (policyId: string) =>
  admin.deletePolicy({ type: 'ACTIVITY_TYPE_DELETE_POLICY', timestampMs: now(), organizationId: root, parameters: { policyId } })
const bobSigns = () =>
  clients.bob.signRawPayload({
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
    timestampMs: now(),
    organizationId: root,
    parameters: {
      signWith: address,
      payload: crypto.getRandomValues(new Uint8Array(32)).reduce((s, b) => s + b.toString(16).padStart(2, '0'), ''),
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    },
  })
const approve = (client: TurnkeyClient, fingerprint: string) =>
  client.approveActivity({ type: 'ACTIVITY_TYPE_APPROVE_ACTIVITY', timestampMs: now(), organizationId: root, parameters: { fingerprint } })
const outcomes = async (activityId: string, policyId: string) =>
  (await admin.getPolicyEvaluations({ organizationId: root, activityId })).policyEvaluations.map(
    (e) => e.policyEvaluations.find((x) => x.policyId === policyId)?.outcome,
  )

describe('malformed policy JSON', () => {
  it('a truncated body, parameters of the wrong shape and selectors that are not a list are 400s; nothing is stored', async () => {
    const before = await countPolicies()
    const body = JSON.stringify(
      submitBody('ACTIVITY_TYPE_CREATE_POLICY_V3', root, { policyName: 'x', effect: 'EFFECT_ALLOW', condition: 'true', notes: '' }),
    )
    const truncated = await svc.post('/public/v1/submit/create_policy', body.slice(0, body.length - 7))
    expect(truncated.status).toBe(400)
    expect(truncated.json.code).toBe(3)
    const notObject = await svc.post('/public/v1/submit/create_policy', submitBody('ACTIVITY_TYPE_CREATE_POLICY_V3', root, 'true'))
    expect(notObject.status).toBe(400)
    expect(notObject.json.message).toContain('parameters')
    const selectors = await svc.post(
      '/public/v1/submit/create_policy',
      submitBody('ACTIVITY_TYPE_CREATE_POLICY_V2', root, { policyName: 'x', effect: 'EFFECT_ALLOW', selectors: { subject: 'x' } }),
    )
    expect(selectors.status).toBe(400)
    expect(selectors.json.message).toContain('parameters.selectors')
    const policies = await svc.post(
      '/public/v1/submit/create_policies',
      submitBody('ACTIVITY_TYPE_CREATE_POLICIES', root, { policies: [{ policyName: 'x', effect: 'EFFECT_ALLOW', notes: '' }, null] }),
    )
    expect(policies.status).toBe(400)
    expect(policies.json.message).toContain('parameters.policies[1]')
    const quoteless = await svc.post(
      '/public/v1/submit/create_policy',
      submitBody('ACTIVITY_TYPE_CREATE_POLICY_V3', root, { policyName: 'x', effect: 'EFFECT_ALLOW', condition: 'activity.type == "X"' }),
    )
    expect(quoteless.status).toBe(400)
    expect(quoteless.json.message).toMatch(/parameters\.condition: .*single quotes.*line 1, column 18/)
    expect(await countPolicies()).toBe(before)
  })
})

describe('consensus that can never be met', () => {
  it('over an empty list: parses, the activity waits, approvals outside the root quorum do not complete it, the root quorum does', async () => {
    const policy = await createPolicy('nobody approves', 'EFFECT_ALLOW', SIGNING, 'approvers.any(u, u.id in [])')
    const res = await bobSigns()
    expect(res.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect((await approve(clients.carol, res.activity.fingerprint)).activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect(await outcomes(res.activity.id, policy)).toEqual(['OUTCOME_REQUIRES_CONSENSUS', 'OUTCOME_REQUIRES_CONSENSUS'])
    const done = await approve(admin, res.activity.fingerprint)
    expect(done.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(done.activity.result.signRawPayloadResult?.r).toMatch(/^[0-9a-f]{64}$/i)
    await deletePolicy(policy)
  })

  it('naming a user who is then deleted: their approval can no longer come; the root quorum can still approve', async () => {
    const policy = await createPolicy('dave approves', 'EFFECT_ALLOW', SIGNING, `approvers.any(u, u.id == '${ids.dave}')`)
    const pending = await bobSigns()
    expect(pending.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    const deleted = await admin.deleteUsers({
      type: 'ACTIVITY_TYPE_DELETE_USERS',
      timestampMs: now(),
      organizationId: root,
      parameters: { userIds: [ids.dave] },
    })
    expect(deleted.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    // The policy is kept as written (deleting a user does not rewrite policies).
    expect((await admin.getPolicy({ organizationId: root, policyId: policy })).policy.consensus).toContain(ids.dave)
    const byDave = await approve(clients.dave, pending.activity.fingerprint).catch((e) => e)
    expect(byDave).toMatchObject({ code: 16 }) // UNAUTHENTICATED: the key went with the user
    const later = await bobSigns()
    expect(later.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect(await outcomes(later.activity.id, policy)).toEqual(['OUTCOME_REQUIRES_CONSENSUS'])
    expect((await approve(admin, pending.activity.fingerprint)).activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    await deletePolicy(policy)
  })

  it('naming a user who does not exist is accepted at create time (ids are not resolved), and is never met', async () => {
    const policy = await createPolicy('a stranger approves', 'EFFECT_ALLOW', SIGNING, "approvers.any(u, u.id == 'no-such-user')")
    const res = await bobSigns()
    expect(res.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect(await outcomes(res.activity.id, policy)).toEqual(['OUTCOME_REQUIRES_CONSENSUS'])
    await deletePolicy(policy)
  })
})

describe('an expression that errors at evaluation', () => {
  it('does not apply: an ALLOW reading a value the activity does not have leaves an implicit deny, recorded as OUTCOME_ERROR', async () => {
    const policy = await createPolicy('erc-20 amounts', 'EFFECT_ALLOW', "eth.tx.contract_call_args['amount'] < 5")
    const deny = await createPolicy('erroring deny', 'EFFECT_DENY', `${SIGNING} && eth.tx.contract_call_args['amount'] > 5`)
    const res = await bobSigns()
    expect(res.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect(await outcomes(res.activity.id, policy)).toEqual(['OUTCOME_ERROR'])
    expect(await outcomes(res.activity.id, deny)).toEqual(['OUTCOME_ERROR'])
    await deletePolicy(deny)
    await deletePolicy(policy)
  })
})
