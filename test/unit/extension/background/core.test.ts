import { describe, expect, it, vi } from 'vitest'
import { AUTO_LOCK_ALARM, createCore, EXPIRY_ALARM, type NewSession } from '@/src/extension/background/core'
import { writePending } from '@/src/extension/background/login/pending'
import { REVOKE_ALARM, REVOKE_KEY } from '@/src/extension/background/session/revocation'
import { SESSION_KEY } from '@/src/extension/background/session/sessionRecord'
import { savePreferences } from '@/src/extension/background/service/settings'
import { createP256WebCryptoKeyPair } from '@/src/crypto/stamp'
import { verifyApiKeyStamp } from '@/src/crypto/verifyStamp'
import { fakeDeps } from '../fakeDeps'

async function newSession(expiresInMs = 3_600_000) {
  const { keyPair, publicKeyHex } = await createP256WebCryptoKeyPair()
  const data = (now: number): NewSession => ({
    organizationId: 'org-1',
    userId: 'user-1',
    username: 'alice',
    publicKeyHex,
    method: 'email',
    expiresAt: now + expiresInMs,
  })
  return { key: keyPair.privateKey, publicKeyHex, data }
}

describe('session core', () => {
  it('stores the session (metadata in storage.session, key in the key store) and arms both alarms', async () => {
    const f = fakeDeps()
    const core = createCore(f.deps)
    const s = await newSession()
    await core.startSession(s.data(f.deps.now()), s.key)
    expect(f.deps.session.data.get(SESSION_KEY)).toMatchObject({ v: 1, organizationId: 'org-1', publicKeyHex: s.publicKeyHex })
    expect(JSON.stringify([...f.deps.session.data.values()])).not.toMatch(/"d"|privateKey/)
    expect(await f.deps.keyStore.get('session')).toBe(s.key)
    expect(f.alarms.get(AUTO_LOCK_ALARM)).toBe(f.deps.now() + 15 * 60_000)
    expect(f.alarms.get(EXPIRY_ALARM)).toBe(f.deps.now() + 3_600_000)
  })

  it('re-hydrates after a restart (new core, same storage) and stamps with the stored key', async () => {
    const f = fakeDeps()
    const s = await newSession()
    await createCore(f.deps).startSession(s.data(f.deps.now()), s.key)
    const restarted = createCore(f.deps)
    const session = await restarted.requireSession()
    expect(session.record.userId).toBe('user-1')
    const body = '{"organizationId":"org-1"}'
    const stamp = await session.stamper.stamp(body)
    const check = verifyApiKeyStamp(stamp.stampHeaderValue, new TextEncoder().encode(body))
    expect(check).toMatchObject({ ok: true, publicKey: s.publicKeyHex })
  })

  it('is not logged in when the key is missing after a restart, and wipes the orphan record', async () => {
    const f = fakeDeps()
    const s = await newSession()
    await createCore(f.deps).startSession(s.data(f.deps.now()), s.key)
    await f.deps.keyStore.clear()
    const core = createCore(f.deps)
    await expect(core.requireSession()).rejects.toMatchObject({ code: 'NOT_LOGGED_IN' })
    expect(f.deps.session.data.has(SESSION_KEY)).toBe(false)
  })

  it('auto-locks after the configured idle minutes (alarm), wiping keys, session and pending steps', async () => {
    const f = fakeDeps()
    await savePreferences(f.deps.local, { autoLockMinutes: 2 })
    const core = createCore(f.deps)
    const wiped = vi.fn()
    core.onWipe(wiped)
    const s = await newSession()
    await core.startSession(s.data(f.deps.now()), s.key)
    await writePending(f.deps.session, 'otp', {
      otpId: 'o',
      otpType: 'OTP_TYPE_EMAIL',
      contact: 'a@b.c',
      targetBundle: '{}',
      createdAt: f.deps.now(),
    })
    f.advance(60_000)
    await core.requireSession() // activity resets the idle timer
    expect(f.alarms.get(AUTO_LOCK_ALARM)).toBe(f.deps.now() + 120_000)
    f.advance(119_000)
    await core.onAlarm(AUTO_LOCK_ALARM)
    expect(await core.current()).not.toBeNull()
    f.advance(1_000)
    await core.onAlarm(AUTO_LOCK_ALARM)
    expect(await core.current()).toBeNull()
    expect(wiped).toHaveBeenCalledWith('auto-lock')
    // Offline (fetch fails): only the key awaiting revocation is left, with its retry alarm.
    expect(f.deps.keyStore.size()).toBe(1)
    expect(await f.deps.keyStore.get('revoking')).toBe(s.key)
    expect([...f.deps.session.data.keys()]).toEqual(['sigil.lastEnd'])
    expect([...f.alarms.keys()]).toEqual([REVOKE_ALARM])
    expect((await core.lastEnd())?.reason).toBe('auto-lock')
  })

  it('an idle session found on wake is wiped even if the alarm never fired', async () => {
    const f = fakeDeps()
    const s = await newSession()
    await createCore(f.deps).startSession(s.data(f.deps.now()), s.key)
    f.advance(15 * 60_000)
    await expect(createCore(f.deps).requireSession()).rejects.toMatchObject({ code: 'SESSION_EXPIRED' })
    expect(await f.deps.keyStore.get('session')).toBeUndefined()
    expect(f.deps.local.data.has(REVOKE_KEY)).toBe(true)
  })

  it('ends at expiry (SESSION_EXPIRED) and on the expiry alarm', async () => {
    const f = fakeDeps()
    const core = createCore(f.deps)
    const s = await newSession(60_000)
    await core.startSession(s.data(f.deps.now()), s.key)
    f.advance(60_000)
    await core.onAlarm(EXPIRY_ALARM)
    expect(f.deps.keyStore.size()).toBe(0)
    await expect(core.requireSession()).rejects.toMatchObject({ code: 'NOT_LOGGED_IN' })
    expect((await core.lastEnd())?.reason).toBe('expired')
  })

  it('logout wipes everything and notifies listeners (pending approvals are rejected there)', async () => {
    const f = fakeDeps()
    const core = createCore(f.deps)
    const rejectAll = vi.fn()
    core.onWipe(rejectAll)
    const s = await newSession()
    await core.startSession(s.data(f.deps.now()), s.key)
    await f.deps.keyStore.put('login-target', (await createP256WebCryptoKeyPair()).keyPair)
    await core.wipe('logout')
    expect(rejectAll).toHaveBeenCalledWith('logout')
    expect(f.deps.keyStore.size()).toBe(1) // the key awaiting revocation (offline here)
    expect(await f.deps.keyStore.get('login-target')).toBeUndefined()
    expect(f.deps.session.data.has(SESSION_KEY)).toBe(false)
    await expect(core.withSession(async () => 'stamped')).rejects.toMatchObject({ code: 'NOT_LOGGED_IN' })
  })
})
