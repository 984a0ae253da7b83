/**
 * Webhook events survive kill -9 (no loss across a service kill -9: the outbox): the
 * service runs as its own process; its delivery is in flight at a receiver that never answers when
 * the process is killed; after a restart on the same data the same event (same id, same signed
 * body) is delivered once its claim by the dead process runs out, and the delivery log shows it
 * DELIVERED; an event committed after the restart is delivered beside it.
 */
import { createServer, type Server } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminClient, spawnService, waitExit } from './helpers/process.js'
import { freshDatabaseUrl, submitBody } from './helpers/service.js'

type Received = { eventId: string; body: string }
let receiver: Server
let receiverUrl: string
let answer: 'hold' | 'ok' = 'hold'
const received: Received[] = []
const dataDir = mkdtempSync(join(tmpdir(), 'sigil-webhook-crash-'))

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (d) => (body += String(d)))
    req.on('end', () => {
      received.push({ eventId: String(req.headers['x-turnkey-event-id'] ?? ''), body })
      if (answer === 'ok') res.writeHead(200).end('ok')
      // 'hold': never answered; the service is killed while it waits
    })
  })
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', () => ok()))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`
})
afterAll(async () => {
  receiver?.closeAllConnections()
  await new Promise((ok) => receiver?.close(ok))
  rmSync(dataDir, { recursive: true, force: true })
})

async function until<T>(what: string, f: () => T | undefined, ms = 30_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = f()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe('webhook outbox across kill -9', () => {
  it('a delivery in flight at the kill is delivered after the restart, with the same id and body', async () => {
    const env: Record<string, string> = { SIGIL_DATA_DIR: dataDir, SIGIL_WEBHOOK_TIMEOUT_MS: '1500' }
    const databaseUrl = await freshDatabaseUrl()
    if (databaseUrl) env.DATABASE_URL = databaseUrl
    let { child, url } = await spawnService(env)
    const { admin, post } = adminClient(dataDir, () => url)
    const org = admin.organizationId
    const created = await post(
      '/public/v1/submit/create_webhook_endpoint',
      submitBody('ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT', org, {
        url: receiverUrl,
        name: 'crash',
        subscriptions: [{ eventType: 'ACTIVITY_UPDATES', filtersJson: '{"activityTypes":["ACTIVITY_TYPE_CREATE_WALLET"]}' }],
      }),
    )
    expect(created.status, JSON.stringify(created.json)).toBe(200)
    const endpointId = created.json.activity.result.createWebhookEndpointResult.endpointId as string

    const wallet = (name: string) =>
      post('/public/v1/submit/create_wallet', submitBody('ACTIVITY_TYPE_CREATE_WALLET', org, { walletName: name, accounts: [] }))
    const first = await wallet('before the kill')
    expect(first.status).toBe(200)
    const inFlight = await until('the first delivery to reach the receiver', () => received[0])
    expect(JSON.parse(inFlight.body).id).toBe(first.json.activity.id)

    child.kill('SIGKILL')
    await waitExit(child)
    ;({ child, url } = await spawnService(env))
    answer = 'ok'
    // Committed right after the restart, while the first is still claimed by the dead instance.
    const second = await wallet('after the restart')
    expect(second.status).toBe(200)

    const redelivered = await until('the first event to be delivered again', () =>
      received.slice(1).find((r) => r.eventId === inFlight.eventId),
    )
    expect(redelivered.body).toBe(inFlight.body)
    await until('the second event', () => received.find((r) => JSON.parse(r.body).id === second.json.activity.id))

    let log: Array<{ eventId: string; outcome: string }> = []
    for (let i = 0; i < 100 && log.length < 2; i++) {
      const r = await post('/public/v1/query/list_webhook_deliveries', { organizationId: org, endpointId })
      log = (r.json.deliveries as typeof log).filter((d) => d.outcome === 'DELIVERED')
      if (log.length < 2) await new Promise((res) => setTimeout(res, 100))
    }
    expect(new Set(log.map((d) => d.eventId)).size).toBe(2)
    expect(log.map((d) => d.eventId)).toContain(inFlight.eventId)

    child.kill('SIGTERM')
    await waitExit(child)
  })
})
