/**
 * Two service instances on one PostgreSQL stay correct together (the outbox across
 * instances is webhooks.instances.test.ts). Idempotency: the same signed body sent to both at once
 * runs once (one wallet, one activity id for both answers). Consensus: an activity submitted on one
 * instance is approved by a vote on the other, its effect happens once, and the concurrent second
 * and third votes on the two instances leave exactly one COMPLETED execution (the late one refused).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newApiKey, rootUser } from './helpers/keys.js'
import { freshDatabaseUrl, startTestService, submitBody, type TestService } from './helpers/service.js'

describe.skipIf(!process.env.DATABASE_URL)('two instances on one PostgreSQL', () => {
  let a: TestService
  let b: TestService
  const dataDir = mkdtempSync(join(tmpdir(), 'sigil-instances-'))
  const keys = [newApiKey('m1'), newApiKey('m2'), newApiKey('m3')]
  let org = ''

  beforeAll(async () => {
    // One database and one data dir (master key, admin key): two instances of one deployment.
    const databaseUrl = await freshDatabaseUrl()
    a = await startTestService({ databaseUrl, dataDir })
    b = await startTestService({ databaseUrl, dataDir })
    const r = await a.post(
      '/public/v1/submit/create_sub_organization',
      submitBody('ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8', a.admin.organizationId, {
        subOrganizationName: 'two instances',
        rootUsers: [rootUser('m1', [keys[0]!.param]), rootUser('m2', [keys[1]!.param]), rootUser('m3', [keys[2]!.param])],
        rootQuorumThreshold: 2,
      }),
    )
    expect(r.status).toBe(200)
    org = r.json.activity.result.createSubOrganizationResultV8.subOrganizationId
  })
  afterAll(async () => {
    await a?.stop()
    await b?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('the same signed body sent to both instances at once runs once', async () => {
    const body = JSON.stringify(
      submitBody('ACTIVITY_TYPE_CREATE_WALLET', a.admin.organizationId, { walletName: `twice-${Date.now()}`, accounts: [] }),
    )
    const [ra, rb] = await Promise.all([a.post('/public/v1/submit/create_wallet', body), b.post('/public/v1/submit/create_wallet', body)])
    expect([ra.status, rb.status]).toEqual([200, 200])
    expect(ra.json.activity.id).toBe(rb.json.activity.id)
    expect(ra.json.activity.result.createWalletResult.walletId).toBe(rb.json.activity.result.createWalletResult.walletId)
    const name = JSON.parse(body).parameters.walletName
    const wallets = await b.post('/public/v1/query/list_wallets', { organizationId: a.admin.organizationId })
    expect(wallets.json.wallets.filter((w: { walletName: string }) => w.walletName === name)).toHaveLength(1)
  })

  it('a vote on the other instance completes an activity once; concurrent late votes leave one execution', async () => {
    const createUser = (name: string) =>
      submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', org, {
        users: [{ userName: name, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }],
      })
    const submitted = await a.post('/public/v1/submit/create_users', createUser('quinn'), keys[0]!.stamper)
    expect(submitted.json.activity.status).toBe('ACTIVITY_STATUS_CONSENSUS_NEEDED')
    const fingerprint = submitted.json.activity.fingerprint as string
    // m2 on B and m3 on A vote at the same moment: one of them completes it, the other is late. (Their
    // bodies differ by timestampMs: byte-identical bodies are one activity whoever sends them.)
    const t = Date.now()
    const voteBody = (ms: number) => submitBody('ACTIVITY_TYPE_APPROVE_ACTIVITY', org, { fingerprint }, { timestampMs: String(ms) })
    const votes = await Promise.all([
      b.post('/public/v1/submit/approve_activity', voteBody(t), keys[1]!.stamper),
      a.post('/public/v1/submit/approve_activity', voteBody(t + 1), keys[2]!.stamper),
    ])
    expect(votes.map((v) => v.status).sort()).toEqual([200, 412])
    for (const svc of [a, b]) {
      const got = await svc.post(
        '/public/v1/query/get_activity',
        { organizationId: org, activityId: submitted.json.activity.id },
        keys[0]!.stamper,
      )
      expect(got.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
      expect(got.json.activity.votes).toHaveLength(2)
    }
    const users = await b.post('/public/v1/query/list_users', { organizationId: org }, keys[0]!.stamper)
    expect(users.json.users.filter((u: { userName: string }) => u.userName === 'quinn')).toHaveLength(1)
  })
})
