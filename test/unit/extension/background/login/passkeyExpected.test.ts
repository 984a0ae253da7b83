import { describe, expect, it } from 'vitest'
import { LAST_LOGIN_KEY, readLastLogin, writeLastLogin } from '@/src/extension/background/login/lastLogin'
import { setup } from '../../approvalFixture'

/** When Sigil knows which passkey it expects, the login asks for it and accepts no other. */
describe('passkey login with an expected credential', () => {
  const kitConfig = (path: string) => (path.endsWith('/v1/wallet_kit_config') ? { organizationId: 'parent-org' } : undefined)
  const assertion = (credentialId: string) => ({ authenticatorData: 'YWQ', clientDataJson: 'Y2Q', credentialId, signature: 'c2ln' })

  it('asks for exactly the expected credential and refuses another account passkey before anything is sent', async () => {
    const t = setup({ routes: kitConfig })
    const begin = await t.popup('passkeyLoginBegin', { credentialId: 'Y3JlZEE' })
    expect(begin).toMatchObject({ ok: true, result: { allowCredentials: ['Y3JlZEE'] } })
    expect(begin.result.challenge).toMatch(/^[A-Za-z0-9_-]+$/)
    const finish = await t.popup('passkeyLoginFinish', assertion('Y3JlZEI'))
    expect(finish).toEqual({
      ok: false,
      error: {
        code: 'INVALID_ARGUMENT',
        message: 'That passkey belongs to another account. Use the passkey of the account you are opening.',
      },
    })
    expect(t.calls.some((c) => c.path.endsWith('/stamp_login'))).toBe(false)
    // the attempt is spent: the key slot and the pending body are gone
    expect(await t.popup('passkeyLoginFinish', assertion('Y3JlZEE'))).toMatchObject({ ok: false, error: { code: 'NO_PENDING_LOGIN' } })
  })

  it("after an email login, the account's passkeys only: another account's passkey is refused", async () => {
    const t = setup({ routes: kitConfig })
    const begin = await t.popup('passkeyLoginBegin', { credentialIds: ['Y3JlZEE', 'Y3JlZEM'] })
    expect(begin).toMatchObject({ ok: true, result: { allowCredentials: ['Y3JlZEE', 'Y3JlZEM'] } })
    const finish = await t.popup('passkeyLoginFinish', assertion('Y3JlZEI'))
    expect(finish).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
    expect(t.calls.some((c) => c.path.endsWith('/stamp_login'))).toBe(false)
    expect(await t.popup('passkeyLoginBegin', { credentialIds: Array.from({ length: 11 }, () => 'Y3JlZEE') })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    })
  })

  it('without an expected credential any passkey may answer', async () => {
    const t = setup({ routes: kitConfig })
    expect(await t.popup('passkeyLoginBegin', {})).toMatchObject({ ok: true, result: { allowCredentials: [] } })
  })

  it('refuses a credential id that is not base64url', async () => {
    const t = setup({ routes: kitConfig })
    expect(await t.popup('passkeyLoginBegin', { credentialId: 'a b' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
  })
})

describe('last login', () => {
  it('is kept in the persistent area, versioned, and shown to the popup only while logged out', async () => {
    const t = setup()
    await writeLastLogin(t.f.deps.local, { method: 'passkey', email: 'a@example.test', hasPasskey: true, credentialId: 'Y3JlZEE' })
    expect(t.f.deps.local.data.get(LAST_LOGIN_KEY)).toEqual({
      v: 1,
      method: 'passkey',
      email: 'a@example.test',
      hasPasskey: true,
      credentialId: 'Y3JlZEE',
    })
    expect((await t.popup('getStatus')).result.lastLogin).toMatchObject({ method: 'passkey', credentialId: 'Y3JlZEE' })
    await t.login()
    expect((await t.popup('getStatus')).result.lastLogin).toBeNull()
    t.f.deps.local.data.set(LAST_LOGIN_KEY, { v: 1, method: 'carrier-pigeon', hasPasskey: true })
    expect(await readLastLogin(t.f.deps.local)).toBeUndefined()
  })
})
