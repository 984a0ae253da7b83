import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { embeddedEngine, freshDatabaseUrl, submitBody } from './helpers/service.js'
import { newApiKey } from './helpers/keys.js'
import { adminClient, spawnService, waitExit } from './helpers/process.js'

const dataDir = mkdtempSync(join(tmpdir(), 'sigil-crash-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe(`crash safety (A2) on ${process.env.DATABASE_URL ? 'PostgreSQL' : `the embedded ${embeddedEngine()}`}`, () => {
  it('keeps every activity a client saw COMPLETED, with all its effects, after kill -9 mid-burst', async () => {
    // The restarted service gets the same database and master key (instances on one PostgreSQL must share it).
    const env: Record<string, string> = { SIGIL_DATA_DIR: dataDir, SIGIL_MASTER_KEY: randomBytes(32).toString('hex') }
    const databaseUrl = await freshDatabaseUrl()
    if (databaseUrl) env.DATABASE_URL = databaseUrl
    const expectedKind = databaseUrl ? 'postgres' : embeddedEngine()
    const databaseKind = async () => ((await (await fetch(`${url}/healthz`)).json()) as { database: string }).database
    let { child, url } = await spawnService(env)
    expect(await databaseKind()).toBe(expectedKind)
    const { admin, post } = adminClient(dataDir, () => url)

    const seen: Array<{ activityId: string; userId: string; userName: string; publicKey: string }> = []
    let killed = false
    const submitOne = async (i: number) => {
      const key = newApiKey(`k${i}`)
      const userName = `burst-${i}`
      try {
        const r = await post(
          '/public/v1/submit/create_users',
          submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', admin.organizationId, {
            users: [{ userName, apiKeys: [key.param], authenticators: [], oauthProviders: [], userTags: [] }],
          }),
        )
        if (r.json.activity?.status === 'ACTIVITY_STATUS_COMPLETED') {
          seen.push({
            activityId: r.json.activity.id,
            userId: r.json.activity.result.createUsersResult.userIds[0],
            userName,
            publicKey: key.publicKey,
          })
        }
      } catch {
        // the connection died with the process: the client saw nothing
      }
    }
    const clients = Array.from({ length: 8 }, async (_, c) => {
      for (let i = 0; !killed && i < 200; i++) await submitOne(c * 1000 + i)
    })
    while (seen.length < 25) await new Promise((r) => setTimeout(r, 5))
    child.kill('SIGKILL')
    killed = true
    await waitExit(child)
    await Promise.all(clients)
    expect(seen.length).toBeGreaterThanOrEqual(25)

    ;({ child, url } = await spawnService(env))
    try {
      expect(await databaseKind()).toBe(expectedKind)
      const users = (await post('/public/v1/query/list_users', { organizationId: admin.organizationId })).json.users as any[]
      const byId = new Map(users.map((u) => [u.userId, u]))
      for (const s of seen) {
        const a = await post('/public/v1/query/get_activity', { organizationId: admin.organizationId, activityId: s.activityId })
        expect(a.json.activity.status).toBe('ACTIVITY_STATUS_COMPLETED')
        const u = byId.get(s.userId)
        expect(u?.userName).toBe(s.userName)
        expect(u?.apiKeys.map((k: any) => k.credential.publicKey)).toEqual([s.publicKey])
      }
      // Nothing half-applied: every burst user has its key and a COMPLETED activity that created it.
      const acts = (
        await post('/public/v1/query/list_activities', {
          organizationId: admin.organizationId,
          filterByType: ['ACTIVITY_TYPE_CREATE_USERS_V3'],
          paginationOptions: { limit: '100' },
        })
      ).json.activities as any[]
      const created = new Set(
        acts.filter((a) => a.status === 'ACTIVITY_STATUS_COMPLETED').flatMap((a) => a.result.createUsersResult.userIds),
      )
      for (const u of users.filter((x) => x.userName.startsWith('burst-'))) {
        expect(u.apiKeys).toHaveLength(1)
        if (acts.length < 100) expect(created.has(u.userId)).toBe(true)
      }
    } finally {
      child.kill('SIGTERM')
      await waitExit(child)
    }
  })
})
