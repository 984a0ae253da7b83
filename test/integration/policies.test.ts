/**
 * Policies (the operations): create (V3), create_policies, update (V1 and V2), delete,
 * delete_policies, get, list and get_policy_evaluations through the official `@turnkey/http`
 * client, unmodified; expressions parsed at create/update time (a 400 naming the field and the
 * position, nothing stored); hostile inputs answered 400, never 500; organizations see only their
 * own policies; a user outside the root quorum manages policies only with the root quorum's approval.
 */
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { TurnkeyClient } from '@turnkey/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_POLICIES } from '../../src/api/limits.js'
import { newApiKey, rootUser } from './helpers/keys.js'
import { adminTurnkeyClient, startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let client: TurnkeyClient
let root: string

beforeAll(async () => {
  svc = await startTestService()
  root = svc.admin.organizationId
  client = adminTurnkeyClient(svc)
})
afterAll(async () => {
  await svc?.stop()
})

const now = () => String(Date.now())
const ALLOW_BOB = "activity.resource == 'PRIVATE_KEY' && activity.action == 'SIGN'"
const TWO_OF_THREE = "approvers.filter(u, u.id == 'a' || u.id == 'b' || u.id == 'c').count() >= 2"

/** A 4xx response naming `field` (status, message, the BadRequest violation and the stable code). */
function expectRefused(r: { status: number; json: any }, field: string, status = 400, code = 'INVALID_ARGUMENT') {
  expect(r.status, JSON.stringify(r.json)).toBe(status)
  expect(r.json.message).toContain(field)
  const bad = r.json.details.find((d: any) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest')
  expect(bad.fieldViolations.map((v: any) => v.field)).toContain(field)
  const info = r.json.details.find((d: any) => d['@type'] === 'type.googleapis.com/sigil.ErrorInfo')
  expect(info?.reason).toBe(code)
}

const countPolicies = async (org = root) => (await client.getPolicies({ organizationId: org })).policies.length
const createBody = (parameters: unknown, org = root) => submitBody('ACTIVITY_TYPE_CREATE_POLICY_V3', org, parameters)

describe('policies through the official client', () => {
  it('creates, gets, lists, updates (V2 and V1) and deletes a policy; records as the hosted OpenAPI types them', async () => {
    const before = await countPolicies()
    const res = await client.createPolicy({
      type: 'ACTIVITY_TYPE_CREATE_POLICY_V3',
      timestampMs: now(),
      organizationId: root,
      parameters: { policyName: 'bob signs', effect: 'EFFECT_ALLOW', condition: ALLOW_BOB, consensus: TWO_OF_THREE, notes: 'n' },
    })
    expect(res.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(res.activity.intent.createPolicyIntentV3).toMatchObject({ policyName: 'bob signs', condition: ALLOW_BOB })
    const policyId = res.activity.result.createPolicyResult?.policyId as string
    expect(policyId).toMatch(/^[0-9a-f-]{36}$/)

    const { policy } = await client.getPolicy({ organizationId: root, policyId })
    expect(policy).toEqual({
      policyId,
      policyName: 'bob signs',
      effect: 'EFFECT_ALLOW',
      condition: ALLOW_BOB,
      consensus: TWO_OF_THREE,
      notes: 'n',
      createdAt: { seconds: expect.stringMatching(/^\d+$/), nanos: expect.stringMatching(/^\d+$/) },
      updatedAt: policy.createdAt,
    })
    const listed = (await client.getPolicies({ organizationId: root })).policies
    expect(listed).toHaveLength(before + 1)
    expect(listed[before]).toEqual(policy)

    const upd = await client.updatePolicy({
      type: 'ACTIVITY_TYPE_UPDATE_POLICY_V2',
      timestampMs: now(),
      organizationId: root,
      parameters: { policyId, policyEffect: 'EFFECT_DENY', policyConsensus: '', time: "time.now < Timestamp('2099-01-01T00:00:00Z')" },
    })
    expect(upd.activity.result.updatePolicyResultV2?.policyId).toBe(policyId)
    const updated = (await client.getPolicy({ organizationId: root, policyId })).policy
    expect(updated).toMatchObject({ policyName: 'bob signs', effect: 'EFFECT_DENY', condition: ALLOW_BOB, consensus: '', notes: 'n' })
    expect(updated.time).toContain('2099')

    // V1 on the same path (no `time`), as the hosted service still accepts it.
    const v1 = await svc.post(
      '/public/v1/submit/update_policy',
      submitBody('ACTIVITY_TYPE_UPDATE_POLICY', root, { policyId, policyName: 'renamed', policyNotes: 'm' }),
    )
    expect(v1.status, JSON.stringify(v1.json)).toBe(200)
    expect(v1.json.activity.result.updatePolicyResult.policyId).toBe(policyId)
    expect((await client.getPolicy({ organizationId: root, policyId })).policy).toMatchObject({
      policyName: 'renamed',
      notes: 'm',
      effect: 'EFFECT_DENY',
    })

    // Root-quorum activities are not evaluated: nothing is recorded for them.
    const evals = await client.getPolicyEvaluations({ organizationId: root, activityId: res.activity.id })
    expect(evals.policyEvaluations).toEqual([])

    const del = await client.deletePolicy({
      type: 'ACTIVITY_TYPE_DELETE_POLICY',
      timestampMs: now(),
      organizationId: root,
      parameters: { policyId },
    })
    expect(del.activity.result.deletePolicyResult?.policyId).toBe(policyId)
    const gone = await client.getPolicy({ organizationId: root, policyId }).catch((e) => e)
    expect(gone).toMatchObject({ code: 5 })
    expect(String(gone.message)).toContain('policyId')
    const again = await client
      .deletePolicy({ type: 'ACTIVITY_TYPE_DELETE_POLICY', timestampMs: now(), organizationId: root, parameters: { policyId } })
      .catch((e) => e)
    expect(again).toMatchObject({ code: 5 })
    expect(String(again.message)).toContain('parameters.policyId')
    expect(await countPolicies()).toBe(before)
  })

  it('creates and deletes several policies at once, all or none', async () => {
    const before = await countPolicies()
    const res = await client.createPolicies({
      type: 'ACTIVITY_TYPE_CREATE_POLICIES',
      timestampMs: now(),
      organizationId: root,
      parameters: {
        policies: [
          { policyName: 'p1', effect: 'EFFECT_ALLOW', condition: ALLOW_BOB, notes: '' },
          { policyName: 'p2', effect: 'EFFECT_DENY', condition: "activity.type == 'ACTIVITY_TYPE_EXPORT_WALLET'", notes: '' },
        ],
      },
    })
    const ids = res.activity.result.createPoliciesResult?.policyIds as string[]
    expect(ids).toHaveLength(2)
    expect((await client.getPolicies({ organizationId: root })).policies.slice(before).map((p) => p.policyName)).toEqual(['p1', 'p2'])

    // One unknown id: none is deleted.
    const partial = await svc.post(
      '/public/v1/submit/delete_policies',
      submitBody('ACTIVITY_TYPE_DELETE_POLICIES', root, { policyIds: [ids[0], 'no-such-policy'] }),
    )
    expectRefused(partial, 'parameters.policyIds[1]', 404, 'NOT_FOUND')
    expect(await countPolicies()).toBe(before + 2)

    const del = await client.deletePolicies({
      type: 'ACTIVITY_TYPE_DELETE_POLICIES',
      timestampMs: now(),
      organizationId: root,
      parameters: { policyIds: ids },
    })
    expect(del.activity.result.deletePoliciesResult?.policyIds).toEqual(ids)
    expect(await countPolicies()).toBe(before)
  })

  it('refuses an expression that does not parse, naming the field and the position; nothing is stored', async () => {
    const before = await countPolicies()
    const bad = await svc.post(
      '/public/v1/submit/create_policy',
      createBody({ policyName: 'x', effect: 'EFFECT_ALLOW', condition: "activity.type == = 'X'" }),
    )
    expectRefused(bad, 'parameters.condition')
    expect(bad.json.message).toMatch(/line 1, column \d+/)

    const unknownField = await svc.post(
      '/public/v1/submit/create_policy',
      createBody({ policyName: 'x', effect: 'EFFECT_ALLOW', condition: "activity.nope == 'X'" }),
    )
    expectRefused(unknownField, 'parameters.condition')
    // `approvers` is a consensus keyword, not a condition one; and the other way round.
    expectRefused(
      await svc.post('/public/v1/submit/create_policy', createBody({ policyName: 'x', effect: 'EFFECT_ALLOW', condition: TWO_OF_THREE })),
      'parameters.condition',
    )
    expectRefused(
      await svc.post(
        '/public/v1/submit/create_policy',
        createBody({ policyName: 'x', effect: 'EFFECT_ALLOW', condition: ALLOW_BOB, consensus: "activity.type == 'X'" }),
      ),
      'parameters.consensus',
    )

    // create_policies: the index of the policy at fault; the valid ones before it are not stored either.
    const many = await svc.post(
      '/public/v1/submit/create_policies',
      submitBody('ACTIVITY_TYPE_CREATE_POLICIES', root, {
        policies: [
          { policyName: 'ok', effect: 'EFFECT_ALLOW', condition: ALLOW_BOB, notes: '' },
          { policyName: 'bad', effect: 'EFFECT_ALLOW', condition: ALLOW_BOB, consensus: 'approvers.count( >= 2', notes: '' },
        ],
      }),
    )
    expectRefused(many, 'parameters.policies[1].consensus')

    // The official client surfaces the same error.
    const viaClient = await client
      .createPolicy({
        type: 'ACTIVITY_TYPE_CREATE_POLICY_V3',
        timestampMs: now(),
        organizationId: root,
        parameters: { policyName: 'x', effect: 'EFFECT_ALLOW', condition: "'unterminated", notes: '' },
      })
      .catch((e) => e)
    expect(viaClient).toMatchObject({ code: 3 })
    expect(String(viaClient.message)).toContain('parameters.condition')

    // update: the new expression is parsed before anything changes.
    const created = await client.createPolicy({
      type: 'ACTIVITY_TYPE_CREATE_POLICY_V3',
      timestampMs: now(),
      organizationId: root,
      parameters: { policyName: 'keep', effect: 'EFFECT_ALLOW', condition: ALLOW_BOB, notes: '' },
    })
    const policyId = created.activity.result.createPolicyResult?.policyId as string
    const badUpdate = await svc.post(
      '/public/v1/submit/update_policy',
      submitBody('ACTIVITY_TYPE_UPDATE_POLICY_V2', root, { policyId, policyName: 'changed', policyCondition: 'activity.type ==' }),
    )
    expectRefused(badUpdate, 'parameters.policyCondition')
    expect((await client.getPolicy({ organizationId: root, policyId })).policy).toMatchObject({ policyName: 'keep', condition: ALLOW_BOB })
    expectRefused(
      await svc.post(
        '/public/v1/submit/update_policy',
        submitBody('ACTIVITY_TYPE_UPDATE_POLICY_V2', root, { policyId: 'nope', policyName: 'x' }),
      ),
      'parameters.policyId',
      404,
      'NOT_FOUND',
    )
    await client.deletePolicy({ type: 'ACTIVITY_TYPE_DELETE_POLICY', timestampMs: now(), organizationId: root, parameters: { policyId } })
    expect(await countPolicies()).toBe(before)
  })

  it('answers hostile input with 400, never 500', async () => {
    const before = await countPolicies()
    const huge = `activity.type == '${'a'.repeat(100 * 1024)}'`
    const long = await svc.post('/public/v1/submit/create_policy', createBody({ policyName: 'x', effect: 'EFFECT_ALLOW', condition: huge }))
    expectRefused(long, 'parameters.condition')
    expect(long.json.message).toContain('limit')

    const deep = `${'('.repeat(10_000)}true${')'.repeat(10_000)}`
    expectRefused(
      await svc.post('/public/v1/submit/create_policy', createBody({ policyName: 'x', effect: 'EFFECT_ALLOW', condition: deep })),
      'parameters.condition',
    )
    expectRefused(
      await svc.post(
        '/public/v1/submit/create_policy',
        createBody({ policyName: 'x', effect: 'EFFECT_ALLOW', consensus: `${'!'.repeat(10_000)}true` }),
      ),
      'parameters.consensus',
    )
    expectRefused(
      await svc.post('/public/v1/submit/create_policy', createBody({ policyName: 'x', effect: 'EFFECT_MAYBE', condition: 'true' })),
      'parameters.effect',
    )
    expectRefused(
      await svc.post('/public/v1/submit/create_policy', createBody({ policyName: 'x', effect: 'EFFECT_ALLOW', condition: 42 })),
      'parameters.condition',
    )
    expectRefused(
      await svc.post('/public/v1/submit/create_policy', createBody({ policyName: '', effect: 'EFFECT_ALLOW' })),
      'parameters.policyName',
    )
    expectRefused(
      await svc.post(
        '/public/v1/submit/create_policies',
        submitBody('ACTIVITY_TYPE_CREATE_POLICIES', root, {
          policies: Array.from({ length: MAX_POLICIES + 1 }, () => ({ policyName: 'x', effect: 'EFFECT_ALLOW', notes: '' })),
        }),
      ),
      'parameters.policies',
    )
    expect(await countPolicies()).toBe(before)
  })

  it('keeps each organization to its own policies and to MAX_POLICIES of them', async () => {
    const key = newApiKey('pol-sub')
    const sub = await client.createSubOrganization({
      type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
      timestampMs: now(),
      organizationId: root,
      parameters: { subOrganizationName: 'pol-sub', rootUsers: [rootUser('pol-sub', [key.param])], rootQuorumThreshold: 1 },
    })
    const subId = sub.activity.result.createSubOrganizationResultV8?.subOrganizationId as string
    const subClient = new TurnkeyClient(
      { baseUrl: svc.url },
      new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKeyHex }),
    )
    // The sub-organization's root user manages its own policies.
    const made = await subClient.createPolicies({
      type: 'ACTIVITY_TYPE_CREATE_POLICIES',
      timestampMs: now(),
      organizationId: subId,
      parameters: {
        policies: Array.from({ length: MAX_POLICIES }, (_, i) => ({ policyName: `p${i}`, effect: 'EFFECT_ALLOW' as const, notes: '' })),
      },
    })
    expect(made.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const full = await svc.post(
      '/public/v1/submit/create_policy',
      createBody({ policyName: 'one more', effect: 'EFFECT_ALLOW', notes: '' }, subId),
      key.stamper,
    )
    expect(full.status, JSON.stringify(full.json)).toBe(412)
    expect(await countPolicies(subId)).toBe(MAX_POLICIES)

    const subPolicy = made.activity.result.createPoliciesResult?.policyIds?.[0] as string
    const other = await client.getPolicy({ organizationId: root, policyId: subPolicy }).catch((e) => e)
    expect(other).toMatchObject({ code: 5 })
    // Another organization's activity has no evaluations to show here.
    const foreign = await subClient.getPolicyEvaluations({ organizationId: subId, activityId: sub.activity.id }).catch((e) => e)
    expect(foreign).toMatchObject({ code: 5 })
  })

  it('a user outside the root quorum creates a policy only once the root quorum approves', async () => {
    const outsider = newApiKey('pol-outsider')
    // create_users V3 (Sigil's version; the official client types only V4).
    const users = await svc.post(
      '/public/v1/submit/create_users',
      submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', root, {
        users: [{ userName: 'pol-outsider', apiKeys: [outsider.param], authenticators: [], oauthProviders: [], userTags: [] }],
      }),
    )
    expect(users.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const before = await countPolicies()
    const r = await svc.post(
      '/public/v1/submit/create_policy',
      createBody({ policyName: 'self-granted', effect: 'EFFECT_ALLOW', condition: 'true', notes: '' }),
      outsider.stamper,
    )
    expect(r.status, JSON.stringify(r.json)).toBe(200)
    expect(r.json.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect(await countPolicies()).toBe(before)
    const approve = await client.approveActivity({
      type: 'ACTIVITY_TYPE_APPROVE_ACTIVITY',
      timestampMs: now(),
      organizationId: root,
      parameters: { fingerprint: r.json.activity.fingerprint },
    })
    expect(approve.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const listed = (await client.getPolicies({ organizationId: root })).policies
    expect(listed.map((p) => p.policyName)).toContain('self-granted')
  })
})
