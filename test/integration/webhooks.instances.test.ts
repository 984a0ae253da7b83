import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshDatabaseUrl, startTestService, submitBody, type TestService } from './helpers/service.js'
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhookReceiver.js'

const FAST = { allowPrivateUrls: true, maxAttempts: 3, backoffMs: 50, maxBackoffMs: 200, timeoutMs: 2_000 }
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe.skipIf(!process.env.DATABASE_URL)('webhooks, two instances on one PostgreSQL', () => {
  let one: TestService
  let two: TestService
  let rx: WebhookReceiver
  const dataDir = mkdtempSync(join(tmpdir(), 'sigil-webhooks-instances-'))
  beforeAll(async () => {
    // One database and one data dir (its master key and admin key): two instances of one deployment.
    const databaseUrl = await freshDatabaseUrl()
    one = await startTestService({ databaseUrl, dataDir, webhooks: FAST })
    two = await startTestService({ databaseUrl, dataDir, webhooks: FAST })
    rx = await startWebhookReceiver()
  })
  afterAll(async () => {
    await one?.stop()
    await two?.stop()
    await rx?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const touch = async (svc: TestService, name: string) => {
    const r = await svc.post(
      '/public/v1/submit/create_user_tag',
      submitBody('ACTIVITY_TYPE_CREATE_USER_TAG', svc.admin.organizationId, { userTagName: name, userIds: [] }),
    )
    expect(r.status).toBe(200)
    return r.json.activity.id as string
  }
  const deliveriesOf = (id: string) => rx.received.filter((w) => (JSON.parse(w.body) as { id: string }).id === id)

  it('each event is delivered once, whichever instance recorded it; one key signs for both', async () => {
    const org = one.admin.organizationId
    const created = await one.post(
      '/public/v1/submit/create_webhook_endpoint',
      submitBody('ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT', org, {
        url: rx.url,
        name: 'both',
        subscriptions: [{ eventType: 'ACTIVITY_UPDATES', filtersJson: '{"activityTypes":["ACTIVITY_TYPE_CREATE_USER_TAG"]}' }],
      }),
    )
    expect(created.status).toBe(200)
    // Instance two caches subscriptions for a second at most.
    await sleep(1_100)
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => touch(i % 2 === 0 ? one : two, `tag-${i}`)))
    await rx.waitFor(() => ids.every((id) => deliveriesOf(id).length >= 1), 10_000)
    await sleep(300)
    for (const id of ids) expect(deliveriesOf(id)).toHaveLength(1)
    const keyIds = new Set(rx.received.map((w) => w.headers['x-turnkey-signature-key-id']))
    expect(keyIds.size).toBe(1)
    const [jwksOne, jwksTwo] = await Promise.all(
      [one, two].map(async (s) => (await (await fetch(`${s.url}/public/v1/discovery/webhooks/jwks`)).json()) as unknown),
    )
    expect(jwksOne).toEqual(jwksTwo)
  })

  it("rows an instance cannot send (its dispatcher stopped) are claimed and sent by the other's", async () => {
    await one.rt.webhooks.dispatcher.stop()
    const id = await touch(one, 'after-stop')
    await rx.waitFor(() => deliveriesOf(id).length >= 1, 5_000)
    await sleep(300)
    expect(deliveriesOf(id)).toHaveLength(1)
  })
})
