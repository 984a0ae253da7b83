/**
 * Session renewal in the background core against the real local service: before the session key
 * ends, a fresh key gets a session through stamp_login stamped by the current one, the switch is
 * whole, the old key is revoked at the service once no request holds it, and an idle wallet is
 * locked instead of renewed.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { RENEW_ALARM } from '@/src/extension/background/core'
import { renewAt, renewMarginMs } from '@/src/extension/background/session/renewal'
import { savePreferences } from '@/src/extension/background/service/settings'
import { startTestService, type TestService } from '../../../../integration/helpers/service'
import { liveSession as live, sharedClock } from './liveSession'

const clock = sharedClock()
let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
}, 60_000)
const liveSession = (service: TestService) => live(service, clock)
afterAll(async () => {
  clock.restore()
  await svc?.stop()
})

async function keysOf(s: Awaited<ReturnType<typeof live>>): Promise<string[]> {
  return s.core.withSession(async (client, session) => {
    const { user } = await client.getUser({ organizationId: session.record.organizationId, userId: session.record.userId })
    return user.apiKeys.map((k) => k.credential.publicKey.toLowerCase())
  })
}

describe('renewAt / renewMarginMs', () => {
  it('renews at 2/3 of the life, or of the chosen length when shorter; the margin is a quarter, at most a minute', () => {
    expect(renewAt(0, 900_000, 900)).toBe(600_000)
    expect(renewAt(0, 900_000, 30)).toBe(20_000)
    expect(renewMarginMs(0, 30_000)).toBe(7_500)
    expect(renewMarginMs(0, 900_000)).toBe(60_000)
  })
})

describe('session renewal', () => {
  it('on its alarm: a fresh key, the chosen length, the old key revoked, the proof time kept', async () => {
    const s = await liveSession(svc)
    await savePreferences(s.f.deps.local, { sessionSeconds: 60, autoLockMinutes: 120 })
    const before = (await s.core.current())!.record
    expect(s.f.alarms.get(RENEW_ALARM)).toBeDefined()
    s.advance(41_000)
    await s.core.onAlarm(RENEW_ALARM)
    const after = (await s.core.current())!.record
    expect(after.publicKeyHex).not.toBe(before.publicKeyHex)
    expect(after.organizationId).toBe(before.organizationId)
    expect(after.authenticatedAt).toBe(before.authenticatedAt)
    expect(Math.abs(after.expiresAt - (clock.now() + 60_000))).toBeLessThan(5_000)
    expect(s.paths).toContain('/public/v1/submit/stamp_login')
    // The next renewal is armed at 2/3 of the new key's life.
    expect(s.f.alarms.get(RENEW_ALARM)).toBe(renewAt(after.renewedAt!, after.expiresAt, 60))
    await vi.waitFor(async () => expect(await keysOf(s)).not.toContain(before.publicKeyHex), { timeout: 5_000 })
    expect(await keysOf(s)).toContain(after.publicKeyHex)
  })

  it('three lifetimes in a row without a new login, each time a different key', async () => {
    const s = await liveSession(svc)
    await savePreferences(s.f.deps.local, { sessionSeconds: 30, autoLockMinutes: 120 })
    const seen = new Set([(await s.core.current())!.record.publicKeyHex])
    const from = s.paths.length
    for (let i = 0; i < 3; i++) {
      s.advance(21_000)
      await s.core.requireSession() // the user is active
      await s.core.onAlarm(RENEW_ALARM)
      seen.add((await s.core.current())!.record.publicKeyHex)
    }
    expect(seen.size).toBe(4)
    // No login again (nothing through the relay), one stamp_login per lifetime.
    const since = s.paths.slice(from)
    expect(since.filter((p) => p.startsWith('/auth/'))).toEqual([])
    expect(since.filter((p) => p === '/public/v1/submit/stamp_login')).toHaveLength(3)
  })

  it('on demand: a request that finds less than the margin left renews first and runs in the new session', async () => {
    const s = await liveSession(svc)
    await savePreferences(s.f.deps.local, { sessionSeconds: 60, autoLockMinutes: 120 })
    const before = (await s.core.current())!.record
    // The login session is 15 minutes: 14.5 minutes on, less than a minute is left.
    s.advance(870_000 - (clock.now() - before.createdAt))
    const used = await s.core.withSession(async (_client, session) => session.record.publicKeyHex)
    expect(used).not.toBe(before.publicKeyHex)
  })

  it('a request in flight during the switch still completes with its key; that key is revoked after it', async () => {
    const s = await liveSession(svc)
    await savePreferences(s.f.deps.local, { sessionSeconds: 60, autoLockMinutes: 120 })
    const old = (await s.core.current())!.record.publicKeyHex
    let release!: () => void
    const paused = new Promise<void>((r) => {
      release = r
    })
    const request = s.core.withSession(async (client, session) => {
      await paused
      // Runs after the switch, still with the key it started with.
      const { user } = await client.getUser({ organizationId: session.record.organizationId, userId: session.record.userId })
      return { key: session.record.publicKeyHex, keys: user.apiKeys.map((k) => k.credential.publicKey.toLowerCase()) }
    })
    s.advance(41_000)
    const renewed = await s.core.renew()
    expect(renewed!.record.publicKeyHex).not.toBe(old)
    release()
    const r = await request
    expect(r.key).toBe(old)
    expect(r.keys).toContain(old)
    expect(await s.core.current()).not.toBeNull()
    await vi.waitFor(async () => expect(await keysOf(s)).not.toContain(old), { timeout: 5_000 })
  })

  it('an idle wallet is locked by the renewal alarm instead of renewed (no stamp_login)', async () => {
    const s = await liveSession(svc)
    await savePreferences(s.f.deps.local, { sessionSeconds: 60, autoLockMinutes: 1 })
    const wiped = vi.fn()
    s.core.onWipe(wiped)
    s.advance(61_000)
    const count = s.paths.length
    await s.core.onAlarm(RENEW_ALARM)
    expect(await s.core.current()).toBeNull()
    expect(wiped).toHaveBeenCalledWith('auto-lock')
    expect(s.paths.slice(count)).not.toContain('/public/v1/submit/stamp_login')
  })

  it('refuses a session length out of bounds, naming the field', async () => {
    const s = await liveSession(svc)
    await expect(savePreferences(s.f.deps.local, { sessionSeconds: 5 })).rejects.toThrow(/sessionSeconds/)
    await expect(savePreferences(s.f.deps.local, { sessionSeconds: 200_000 })).rejects.toThrow(/sessionSeconds/)
  })
})

describe('changing the session length', () => {
  it('re-arms the live session’s renewal for the new length', async () => {
    const clock = sharedClock()
    const svc2 = await startTestService()
    try {
      const s = await live(svc2, clock)
      const r = (await s.core.current())!.record
      expect(s.f.alarms.get(RENEW_ALARM)).toBe(renewAt(r.createdAt, r.expiresAt, 900))
      await s.core.savePreferences({ sessionSeconds: 30 })
      expect(s.f.alarms.get(RENEW_ALARM)).toBe(r.createdAt + 20_000)
    } finally {
      await svc2.stop()
    }
  }, 60_000)
})
