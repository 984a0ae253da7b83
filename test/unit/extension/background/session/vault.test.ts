/**
 * The wallet password (session/vault.ts) against the real local service: set after a login, it
 * unlocks a locked wallet with no email (stamp_login with the sealed device key); a wrong password
 * is refused here without a request and slows the next attempts, also after a worker restart; the
 * stored record is useless without the password; logout removes it and revokes the device key.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createCore } from '@/src/extension/background/core'
import { loginWithOauth } from '@/src/extension/background/login/oauth'
import {
  ATTEMPTS_KEY,
  confirmPassword,
  delayAfter,
  forgetPassword,
  setupPassword,
  unlockWithPassword,
  VAULT_KEY,
  vaultStatus,
} from '@/src/extension/background/session/vault'
import { startTestService, type TestService } from '../../../../integration/helpers/service'
import { liveSession } from './liveSession'

let svc: TestService
beforeAll(async () => {
  svc = await startTestService()
}, 60_000)
afterAll(async () => {
  vi.useRealTimers()
  await svc?.stop()
})

const PASSWORD = 'correct horse battery'

async function deviceKeys(s: Awaited<ReturnType<typeof liveSession>>): Promise<string[]> {
  return s.core.withSession(async (client, session) => {
    const { user } = await client.getUser({ organizationId: session.record.organizationId, userId: session.record.userId })
    return user.apiKeys.map((k) => k.apiKeyId)
  })
}

describe('wallet password', () => {
  it('after a lock, the password unlocks the same account with no email and no relay request', async () => {
    const s = await liveSession(svc)
    expect(await vaultStatus(s.core)).toMatchObject({ hasPassword: false, offer: true })
    const status = await setupPassword(s.core, PASSWORD)
    expect(status).toMatchObject({ hasPassword: true, offer: false, username: s.email })
    await s.core.wipe('lock')
    expect(await s.core.current()).toBeNull()
    const from = s.paths.length
    const t0 = performance.now()
    const record = await unlockWithPassword(s.core, PASSWORD)
    const ms = performance.now() - t0
    console.info(`password unlock took ${Math.round(ms)} ms (scrypt N=2^17 r=8 p=1 + stamp_login)`)
    expect(record).toMatchObject({ method: 'password', organizationId: s.record.organizationId, userId: s.record.userId })
    expect(record.publicKeyHex).not.toBe(s.record.publicKeyHex)
    expect(record.authenticatedAt).toBeGreaterThan(s.record.authenticatedAt)
    const since = s.paths.slice(from)
    expect(since.filter((p) => p.startsWith('/auth/'))).toEqual([])
    expect(since).toContain('/public/v1/submit/stamp_login')
    // The new session works at the service.
    expect((await deviceKeys(s)).length).toBeGreaterThan(0)
  }, 60_000)

  it('a wrong password is refused without any request; from the 3rd failure on, attempts wait, also after a restart', async () => {
    const s = await liveSession(svc)
    await setupPassword(s.core, PASSWORD)
    await s.core.wipe('lock')
    const from = s.paths.length
    for (let i = 0; i < 3; i++)
      await expect(unlockWithPassword(s.core, 'wrong password!')).rejects.toMatchObject({ code: 'WRONG_PASSWORD', field: 'password' })
    expect(s.paths.slice(from)).toEqual([])
    // A restarted worker (a new core over the same storage) still makes the user wait, even with the right password.
    const restarted = createCore(s.core.deps)
    await expect(unlockWithPassword(restarted, PASSWORD)).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' })
    expect((await vaultStatus(restarted)).retryAfterMs).toBeGreaterThan(0)
    expect(s.paths.slice(from)).toEqual([])
    s.advance(delayAfter(3))
    await expect(unlockWithPassword(restarted, 'wrong again!')).rejects.toMatchObject({ code: 'WRONG_PASSWORD' })
    expect((await vaultStatus(restarted)).retryAfterMs).toBe(delayAfter(4))
    s.advance(delayAfter(4))
    await expect(unlockWithPassword(restarted, PASSWORD)).resolves.toMatchObject({ method: 'password' })
    expect(s.f.deps.local.data.has(ATTEMPTS_KEY)).toBe(false)
  }, 60_000)

  it('the stored record holds no usable key: no clear key material, and it does not import as a key', async () => {
    const s = await liveSession(svc)
    await setupPassword(s.core, PASSWORD)
    const stored = s.f.deps.local.data.get(VAULT_KEY) as { sealed: string }
    const all = JSON.stringify([...s.f.deps.local.data.values()])
    expect(all).not.toContain(PASSWORD)
    expect(all).not.toMatch(/"d":|pkcs8|privateKey/)
    const bytes = Uint8Array.from(atob(stored.sealed), (c) => c.charCodeAt(0))
    await expect(crypto.subtle.importKey('pkcs8', bytes, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign'])).rejects.toThrow()
  }, 60_000)

  it('a record edited to weaker scrypt parameters is not read: no password, no unlock', async () => {
    const s = await liveSession(svc)
    await setupPassword(s.core, PASSWORD)
    const stored = s.f.deps.local.data.get(VAULT_KEY) as { kdf: { N: number } }
    s.f.deps.local.data.set(VAULT_KEY, { ...stored, kdf: { ...stored.kdf, N: 2 ** 10 } })
    expect(await vaultStatus(s.core)).toMatchObject({ hasPassword: false })
    await s.core.wipe('lock')
    await expect(unlockWithPassword(s.core, PASSWORD)).rejects.toMatchObject({ code: 'NO_PASSWORD' })
  }, 60_000)

  it('confirmPassword re-checks locally and marks the session as just authenticated', async () => {
    const s = await liveSession(svc)
    await setupPassword(s.core, PASSWORD)
    s.advance(60_000)
    const before = (await s.core.current())!.record.authenticatedAt
    const from = s.paths.length
    await expect(confirmPassword(s.core, 'not it at all')).rejects.toMatchObject({ code: 'WRONG_PASSWORD' })
    const r = await confirmPassword(s.core, PASSWORD)
    expect(r.authenticatedAt).toBeGreaterThanOrEqual(before + 60_000)
    expect((await s.core.current())!.record.authenticatedAt).toBe(r.authenticatedAt)
    expect(s.paths.slice(from)).toEqual([])
  }, 60_000)

  it('logout removes the password here and revokes the device key at the service', async () => {
    const s = await liveSession(svc)
    await setupPassword(s.core, PASSWORD)
    const { apiKeyId } = s.f.deps.local.data.get(VAULT_KEY) as { apiKeyId: string }
    expect(await deviceKeys(s)).toContain(apiKeyId)
    await forgetPassword(s.core)
    await s.core.wipe('logout')
    expect(s.f.deps.local.data.has(VAULT_KEY)).toBe(false)
    await expect(unlockWithPassword(s.core, PASSWORD)).rejects.toMatchObject({ code: 'NO_PASSWORD' })
    await loginWithOauth(s.core, { issuer: `${svc.url}/dev/oidc` })
    expect(await deviceKeys(s)).not.toContain(apiKeyId)
  }, 60_000)
})
