import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, submitBody, type TestService } from './helpers/service.js'
import { newApiKey, rootUser } from './helpers/keys.js'

let svc: TestService
let org: string
let userIds: string[]
const keys = [newApiKey('m1'), newApiKey('m2'), newApiKey('m3')]
const outsider = newApiKey('outsider')

beforeAll(async () => {
  svc = await startTestService()
  const r = await svc.post(
    '/public/v1/submit/create_sub_organization',
    submitBody('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', svc.admin.organizationId, {
      subOrganizationName: 'council',
      rootUsers: [rootUser('m1', [keys[0]!.param]), rootUser('m2', [keys[1]!.param]), rootUser('m3', [keys[2]!.param])],
      rootQuorumThreshold: 2,
    }),
  )
  org = r.json.activity.result.createSubOrganizationResultV8.subOrganizationId
  userIds = r.json.activity.result.createSubOrganizationResultV8.rootUserIds
})
afterAll(async () => {
  await svc?.stop()
})

const createUserBody = (name: string, apiKeys: Array<(typeof outsider)['param']> = []) =>
  submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', org, {
    users: [{ userName: name, apiKeys, authenticators: [], oauthProviders: [], userTags: [] }],
  })
const usersNamed = async (name: string) =>
  (await svc.post('/public/v1/query/list_users', { organizationId: org }, keys[0]!.stamper)).json.users.filter(
    (u: any) => u.userName === name,
  )
const vote = (kind: 'approve' | 'reject', fingerprint: string, k = keys[1]!) =>
  svc.post(
    `/public/v1/submit/${kind}_activity`,
    submitBody(kind === 'approve' ? 'ACTIVITY_TYPE_APPROVE_ACTIVITY' : 'ACTIVITY_TYPE_REJECT_ACTIVITY', org, { fingerprint }),
    k.stamper,
  )

describe('root quorum 2 of 3 (A2)', () => {
  it('needs consensus, applies nothing, then completes with its effects on a second approval', async () => {
    const r = await svc.post('/public/v1/submit/create_users', createUserBody('erin'), keys[0]!.stamper)
    expect(r.status).toBe(200)
    const a = r.json.activity
    expect(a.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect(a.votes).toHaveLength(1)
    expect(a.votes[0]).toMatchObject({
      userId: userIds[0],
      selection: 'VOTE_SELECTION_APPROVED',
      scheme: 'SIGNATURE_SCHEME_TK_API_P256',
      publicKey: keys[0]!.publicKey,
    })
    expect(a.canApprove).toBe(false) // the submitter already voted
    expect(await usersNamed('erin')).toHaveLength(0)

    const seenBy2 = await svc.post('/public/v1/query/get_activity', { organizationId: org, activityId: a.id }, keys[1]!.stamper)
    expect(seenBy2.json.activity.canApprove).toBe(true)
    expect(seenBy2.json.activity.canReject).toBe(true)

    const approved = await vote('approve', a.fingerprint)
    expect(approved.status).toBe(200)
    const after = await svc.post('/public/v1/query/get_activity', { organizationId: org, activityId: a.id }, keys[0]!.stamper)
    expect(after.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    expect(after.json.activity.votes).toHaveLength(2)
    expect(after.json.activity.result.createUsersResult.userIds).toHaveLength(1)
    expect(await usersNamed('erin')).toHaveLength(1)

    const late = await vote('approve', a.fingerprint, keys[2]!)
    expect(late.status).toBe(412)
  })

  it('ends REJECTED with no effect when the threshold becomes unreachable', async () => {
    const r = await svc.post('/public/v1/submit/create_users', createUserBody('frank'), keys[0]!.stamper)
    const a = r.json.activity
    expect((await vote('reject', a.fingerprint, keys[1]!)).status).toBe(200)
    let now = await svc.post('/public/v1/query/get_activity', { organizationId: org, activityId: a.id }, keys[0]!.stamper)
    expect(now.json.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect((await vote('reject', a.fingerprint, keys[2]!)).status).toBe(200)
    now = await svc.post('/public/v1/query/get_activity', { organizationId: org, activityId: a.id }, keys[0]!.stamper)
    expect(now.json.activity.status).toBe('ACTIVITY_STATUS_REJECTED')
    expect(await usersNamed('frank')).toHaveLength(0)
  })

  it('refuses double votes and votes from non-members', async () => {
    const r = await svc.post('/public/v1/submit/create_users', createUserBody('gina'), keys[0]!.stamper)
    const fp = r.json.activity.fingerprint
    const double = await vote('approve', fp, keys[0]!)
    expect(double.status).toBe(412)
    expect(double.json.message).toContain('already voted')

    // An outsider: a user of the organization outside the root quorum, with its API key, added by
    // the quorum itself (the parent organization's admin cannot add a key here: custody).
    const add = await svc.post('/public/v1/submit/create_users', createUserBody('outsider', [outsider.param]), keys[1]!.stamper)
    expect((await vote('approve', add.json.activity.fingerprint, keys[2]!)).status).toBe(200)
    const [outsiderUser] = await usersNamed('outsider')
    expect(outsiderUser.apiKeys.map((k: any) => k.credential.publicKey)).toEqual([outsider.publicKey])
    const nonMember = await vote('approve', fp, outsider)
    expect(nonMember.status).toBe(403)
    const unknown = await vote('approve', 'sha256:' + '0'.repeat(64))
    expect(unknown.status).toBe(404)
    expect(unknown.json.message).toContain('fingerprint')
    const status = await svc.post(
      '/public/v1/query/get_activity',
      { organizationId: org, activityId: r.json.activity.id },
      keys[0]!.stamper,
    )
    expect(status.json.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    expect(await usersNamed('gina')).toHaveLength(0)
  })

  it('update_root_quorum changes the threshold for later activities', async () => {
    const r = await svc.post(
      '/public/v1/submit/update_root_quorum',
      submitBody('ACTIVITY_TYPE_UPDATE_ROOT_QUORUM', org, { threshold: 1, userIds }),
      keys[0]!.stamper,
    )
    expect(r.json.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    await vote('approve', r.json.activity.fingerprint, keys[2]!)
    const direct = await svc.post('/public/v1/submit/create_users', createUserBody('hank'), keys[1]!.stamper)
    expect(direct.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
    const tooHigh = await svc.post(
      '/public/v1/submit/update_root_quorum',
      submitBody('ACTIVITY_TYPE_UPDATE_ROOT_QUORUM', org, { threshold: 4, userIds }),
      keys[1]!.stamper,
    )
    expect(tooHigh.status).toBe(400)
    expect(tooHigh.json.message).toContain('parameters.threshold')
  })
})
