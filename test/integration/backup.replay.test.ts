/**
 * A signed backup request (POST /admin/v1/backup, stamped by the root organization's admin
 * API key) is single use: the same signed bytes sent again within the timestamp window are refused,
 * so a captured request cannot be replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BACKUP_PATH } from '../../src/server/backup.js'
import { startTestService, type TestService } from './helpers/service.js'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
}, 60_000)
afterAll(async () => {
  await svc?.stop()
})

describe.skipIf(!!process.env.DATABASE_URL)('signed backup requests', () => {
  it('serves a signed request once; a replay of the same bytes within the window is refused', async () => {
    const body = JSON.stringify({ timestampMs: String(Date.now()) })
    const stamp = await svc.adminStamper.stamp(body)
    const send = () =>
      fetch(`${svc.url}${BACKUP_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [stamp.stampHeaderName]: stamp.stampHeaderValue },
        body,
      })
    const first = await send()
    expect(first.status).toBe(200)
    expect((await first.arrayBuffer()).byteLength).toBeGreaterThan(0)
    const replay = await send()
    expect(replay.status).toBe(403)
    const err = (await replay.json()) as { message: string; details: Array<{ reason?: string }> }
    expect(err.details.some((d) => d.reason === 'PERMISSION_DENIED')).toBe(true)
    expect(err.message).toMatch(/already been used/)
    // A freshly signed request still works.
    const again = JSON.stringify({ timestampMs: String(Date.now() + 1) })
    const s2 = await svc.adminStamper.stamp(again)
    const fresh = await fetch(`${svc.url}${BACKUP_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [s2.stampHeaderName]: s2.stampHeaderValue },
      body: again,
    })
    expect(fresh.status).toBe(200)
  }, 60_000)
})
