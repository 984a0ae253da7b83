import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newApiKey } from './helpers/keys.js'
import { clientFor, startPolicyOrg } from './helpers/policyOrg.js'
import { submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let admin: TurnkeyClient
let bob: TurnkeyClient
let root: string
let address: string
let _bobKey: ReturnType<typeof newApiKey>
const now = () => String(Date.now())
const _clientOf = (k: { publicKey: string; privateKeyHex: string }) => clientFor(svc, k)

beforeAll(async () => {
  const org = await startPolicyOrg(['bob'], 'intents')
  ;({ svc, root, admin, address } = org)
  bob = org.clients.bob
  _bobKey = org.keys.bob
})
afterAll(async () => {
  await svc?.stop()
})

const bobSigns = () =>
  bob.signRawPayload({
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
    timestampMs: now(),
    organizationId: root,
    parameters: {
      signWith: address,
      payload: 'cd'.repeat(32),
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NO_OP',
    },
  })
/**
 * create_policy with a V1 or V2 intent through the official client's `createPolicy` (the same
 * path and request): its TypeScript types name only the V3 intent, so the body is cast.
 */
const createPolicyOlder = (
  client: TurnkeyClient,
  body: { type: string; timestampMs: string; organizationId: string; parameters: unknown },
) => client.createPolicy(body as unknown as Parameters<TurnkeyClient['createPolicy']>[0])
const remove = (policyId: string) =>
  admin.deletePolicy({ type: 'ACTIVITY_TYPE_DELETE_POLICY', timestampMs: now(), organizationId: root, parameters: { policyId } })

describe('create_policy V1 and V2: selectors', () => {
  it('V1: each {subject, operator, target} becomes a clause of the condition, and the policy is enforced', async () => {
    const res = await createPolicyOlder(admin, {
      type: 'ACTIVITY_TYPE_CREATE_POLICY',
      timestampMs: now(),
      organizationId: root,
      parameters: {
        policyName: 'bob signs raw payloads',
        effect: 'EFFECT_ALLOW',
        selectors: [
          { subject: 'activity.type', operator: 'OPERATOR_EQUAL', target: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' },
          { subject: 'activity.params.sign_with', operator: 'OPERATOR_IN', target: address },
        ],
        notes: 'from selectors',
      },
    })
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(res.activity.type).toBe('ACTIVITY_TYPE_CREATE_POLICY')
    expect(res.activity.intent.createPolicyIntent?.selectors).toHaveLength(2)
    const policyId = res.activity.result.createPolicyResult?.policyId as string
    const { policy } = await admin.getPolicy({ organizationId: root, policyId })
    expect(policy).toMatchObject({ policyName: 'bob signs raw payloads', effect: 'EFFECT_ALLOW', consensus: '', notes: 'from selectors' })
    expect(policy.condition).toBe(
      `((activity.type) == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2') && ((activity.params.sign_with) in ['${address}'])`,
    )
    expect((await bobSigns()).activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    await remove(policyId)
    expect((await bobSigns()).activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
  })

  it('V2: `targets` lists; NOT_IN, CONTAINS_ONE and numeric targets translate; a DENY from selectors beats an ALLOW', async () => {
    const allow = await createPolicyOlder(admin, {
      type: 'ACTIVITY_TYPE_CREATE_POLICY_V2',
      timestampMs: now(),
      organizationId: root,
      parameters: {
        policyName: 'signing',
        effect: 'EFFECT_ALLOW',
        selectors: [{ subject: 'activity.params.sign_with', operator: 'OPERATOR_IN', targets: [address, '0xother'] }],
      },
    })
    const allowId = allow.activity.result.createPolicyResult?.policyId as string
    expect((await bobSigns()).activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const deny = await createPolicyOlder(admin, {
      type: 'ACTIVITY_TYPE_CREATE_POLICY_V2',
      timestampMs: now(),
      organizationId: root,
      parameters: {
        policyName: 'no hex payloads but from the others',
        effect: 'EFFECT_DENY',
        selectors: [
          { subject: 'activity.params.encoding', operator: 'OPERATOR_EQUAL', targets: ['PAYLOAD_ENCODING_HEXADECIMAL'] },
          { subject: 'activity.params.sign_with', operator: 'OPERATOR_NOT_IN', targets: ['0xother'] },
          { subject: "['a', 'b']", operator: 'OPERATOR_CONTAINS_ONE', targets: ['x', 'b'] },
          { subject: '[1, 2]', operator: 'OPERATOR_CONTAINS_ALL', targets: ['1', '2'] },
        ],
      },
    })
    const denyId = deny.activity.result.createPolicyResult?.policyId as string
    const { policy } = await admin.getPolicy({ organizationId: root, policyId: denyId })
    expect(policy.condition).toContain("!((activity.params.sign_with) in ['0xother'])")
    expect(policy.condition).toContain("((['a', 'b']).contains('x') || (['a', 'b']).contains('b'))")
    expect(policy.condition).toContain('(([1, 2]).contains(1) && ([1, 2]).contains(2))')
    const denied = await bobSigns().catch((e) => e)
    expect(denied).toMatchObject({ code: 7 })
    expect(String(denied.message)).toContain('no hex payloads but from the others')
    await remove(denyId)
    await remove(allowId)
  })

  it('a selector that does not read as a condition is a 400 naming it; nothing is stored', async () => {
    const before = (await admin.getPolicies({ organizationId: root })).policies.length
    const bad = await svc.post(
      '/public/v1/submit/create_policy',
      submitBody('ACTIVITY_TYPE_CREATE_POLICY_V2', root, {
        policyName: 'x',
        effect: 'EFFECT_ALLOW',
        selectors: [
          { subject: 'activity.type', operator: 'OPERATOR_EQUAL', targets: ['X'] },
          { subject: 'activity.nope', operator: 'OPERATOR_EQUAL', targets: ['X'] },
        ],
      }),
    )
    expect(bad.status).toBe(400)
    expect(bad.json.message).toContain('parameters.selectors[1]')
    expect(bad.json.message).toContain('nope')
    const op = await svc.post(
      '/public/v1/submit/create_policy',
      submitBody('ACTIVITY_TYPE_CREATE_POLICY', root, {
        policyName: 'x',
        effect: 'EFFECT_ALLOW',
        selectors: [{ subject: 'activity.type', operator: 'OPERATOR_LIKE', target: 'X' }],
      }),
    )
    expect(op.status).toBe(400)
    expect(op.json.message).toContain('parameters.selectors[0].operator')
    const quote = await svc.post(
      '/public/v1/submit/create_policy',
      submitBody('ACTIVITY_TYPE_CREATE_POLICY', root, {
        policyName: "it's quoted",
        effect: 'EFFECT_DENY',
        selectors: [{ subject: 'activity.type', operator: 'OPERATOR_EQUAL', target: "it's \\ quoted" }],
      }),
    )
    expect(quote.status).toBe(200)
    const id = quote.json.activity.result.createPolicyResult.policyId
    expect((await admin.getPolicy({ organizationId: root, policyId: id })).policy.condition).toBe("(activity.type) == 'it\\'s \\\\ quoted'")
    await remove(id)
    expect((await admin.getPolicies({ organizationId: root })).policies.length).toBe(before)
  })

  it('is managed by the root quorum only: a user outside it waits for approval, as for V3', async () => {
    const res = await createPolicyOlder(bob, {
      type: 'ACTIVITY_TYPE_CREATE_POLICY',
      timestampMs: now(),
      organizationId: root,
      parameters: { policyName: 'self-serve', effect: 'EFFECT_ALLOW', selectors: [] },
    })
    expect(res.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    const ok = await admin.rejectActivity({
      type: 'ACTIVITY_TYPE_REJECT_ACTIVITY',
      timestampMs: now(),
      organizationId: root,
      parameters: { fingerprint: res.activity.fingerprint },
    })
    expect(ok.activity.status).toBe('ACTIVITY_STATUS_REJECTED')
  })
})

describe('get_active_policies', () => {
  it("reports each policy's time window at the service's clock", async () => {
    const create = async (policyName: string, time?: string) => {
      const r = await svc.post(
        '/public/v1/submit/create_policy',
        submitBody('ACTIVITY_TYPE_CREATE_POLICY_V3', root, {
          policyName,
          effect: 'EFFECT_DENY',
          condition: "activity.type == 'ACTIVITY_TYPE_DELETE_WALLETS'",
          notes: '',
          ...(time ? { time } : {}),
        }),
      )
      expect(r.status).toBe(200)
      return r.json.activity.result.createPolicyResult.policyId as string
    }
    const always = await create('always')
    const since2000 = await create('since 2000', "time.now >= Timestamp('2000-01-01T00:00:00Z')")
    const until2000 = await create('until 2000', "time.now < Timestamp('2000-01-01T00:00:00Z')")
    const before = Date.now()
    const res = await admin.getActivePolicies({ organizationId: root })
    expect(Number(res.evaluatedAtMs)).toBeGreaterThanOrEqual(before)
    const status = (id: string) => res.statuses.find((s) => s.policyId === id)
    expect(status(always)).toEqual({ organizationId: root, policyId: always, active: true })
    expect(status(since2000)).toMatchObject({ active: true, timeExpr: "time.now >= Timestamp('2000-01-01T00:00:00Z')" })
    expect(status(until2000)).toMatchObject({ active: false, timeExpr: "time.now < Timestamp('2000-01-01T00:00:00Z')" })
    expect(status(until2000)?.error).toBeUndefined()
    for (const id of [always, since2000, until2000]) await remove(id)
    expect((await admin.getActivePolicies({ organizationId: root })).statuses.map((s) => s.policyId)).not.toContain(always)
  })
})
