/**
 * Policies' bad input and limits (issue 14, "Bad input and limits"), each with a defined outcome
 * and never a 500, through the official `@turnkey/http` client where it can send the request:
 * malformed policy JSON; a consensus over an empty list (parses; never met: the activity waits and
 * only the root quorum can complete it); an expression that errors at evaluation (the policy does
 * not apply: implicit deny); a consensus naming a user who is then deleted (never met by them; the
 * root quorum still can); a policy naming a user who does not exist (accepted, as the language
 * does not resolve ids). 100 kB expressions, 10,000 parentheses and unknown effects are in
 * policies.test.ts; mismatched types at evaluation time in test/unit/service/policy (the engine
 * does not fill the `dynamic` values yet: `eth.tx.contract_call_args`, `eth.eip_712.message`).
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newApiKey } from './helpers/keys.js'
import { startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let admin: TurnkeyClient
let root: string
let address: string
const people = ['bob', 'carol', 'dave'] as const
type Person = (typeof people)[number]
const keys = Object.fromEntries(people.map((p) => [p, newApiKey(p)])) as Record<Person, ReturnType<typeof newApiKey>>
const ids = {} as Record<Person, string>
const clients = {} as Record<Person, TurnkeyClient>
const now = () => String(Date.now())
const clientOf = (k: { publicKey: string; privateKeyHex: string }) =>
  new TurnkeyClient({ baseUrl: svc.url }, new ApiKeyStamper({ apiPublicKey: k.publicKey, apiPrivateKey: k.privateKeyHex }))

beforeAll(async () => {
  svc = await startTestService()
  root = svc.admin.organizationId
  admin = clientOf({ publicKey: svc.admin.publicKey, privateKeyHex: svc.admin.privateKey })
  const r = await svc.post(
    '/public/v1/submit/create_users',
    submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', root, {
      users: people.map((p) => ({ userName: p, apiKeys: [keys[p].param], authenticators: [], oauthProviders: [], userTags: [] })),
    }),
  )
  expect(r.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
  r.json.activity.result.createUsersResult.userIds.forEach((id: string, i: number) => {
    ids[people[i] as Person] = id
  })
  for (const p of people) clients[p] = clientOf(keys[p])
  const wallet = await admin.createWallet({
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    timestampMs: now(),
    organizationId: root,
    parameters: {
      walletName: 'edge',
      accounts: [
        { curve: 'CURVE_SECP256K1', pathFormat: 'PATH_FORMAT_BIP32', path: "m/44'/60'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' },
      ],
    },
  })
  address = wallet.activity.result.createWalletResult?.addresses[0] as string
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
