import { describe, expect, it, vi } from 'vitest'
import { recoverMessageAddress } from 'viem'
import { createP256WebCryptoKeyPair } from '@/src/crypto/stamp'
import { ACCOUNT, ORIGIN, OTHER, setup } from '../../approvalFixture'

/**
 * A connected site's request that needs the session, after the session is gone (lock, logout,
 * expiry): Sigil's login window opens, and the request goes on to its approval after the login.
 */
describe('a signing request when the session is gone', () => {
  const loginWindowOpened = async (t: ReturnType<typeof setup>, n = 1) =>
    vi.waitFor(
      () => {
        if (t.loginWindows.length < n) throw new Error('waiting for the login window')
      },
      { timeout: 10_000 },
    )

  it('after a lock: personal_sign opens the login window, then its approval, and signs in the new session', async () => {
    const t = setup({ loginWindow: true })
    await t.connected()
    await t.popup('lock')
    const pending = t.rpc('personal_sign', ['0x68656c6c6f', ACCOUNT.address])
    await loginWindowOpened(t)
    expect((await t.popup('getStatus')).result).toMatchObject({ loggedIn: false, loginWanted: [ORIGIN] })
    const windowsBefore = t.windows.length
    await t.login()
    const w = await t.windowOpened(windowsBefore + 1)
    expect(t.closed).toContain(t.loginWindows[0])
    expect(await t.popup('approvalGet', { id: w.approvalId })).toMatchObject({
      ok: true,
      result: { origin: ORIGIN, method: 'personal_sign' },
    })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    const reply = (await pending) as { result: `0x${string}` }
    expect(await recoverMessageAddress({ message: 'hello', signature: reply.result })).toBe(ACCOUNT.address)
  })

  it('closing the login window is 4001 and signs nothing; a Solana sign waits the same way', async () => {
    const t = setup({ loginWindow: true })
    await t.connected()
    await t.popup('logout')
    const pending = t.rpc('eth_signTypedData_v4', [ACCOUNT.address, '{}'])
    await loginWindowOpened(t)
    t.bg.onWindowRemoved(t.loginWindows[0]!)
    expect(await pending).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
    expect(t.windows).toHaveLength(1) // only the connect's approval window
  })

  it('a login to another organization answers 4100 (the grant is not that account\u2019s)', async () => {
    const t = setup({ loginWindow: true })
    await t.connected()
    await t.popup('lock')
    const pending = t.rpc('personal_sign', ['0x68656c6c6f', ACCOUNT.address])
    await loginWindowOpened(t)
    const other = await createP256WebCryptoKeyPair()
    await t.bg.core.startSession(
      {
        organizationId: 'org-2',
        userId: 'user-2',
        username: 'bob',
        method: 'email',
        publicKeyHex: other.publicKeyHex,
        expiresAt: t.f.deps.now() + 3_600_000,
      },
      other.keyPair.privateKey,
    )
    expect(await pending).toMatchObject({ error: { code: 4100 } })
  })

  it('a site that was never connected opens no window: 4100 at once', async () => {
    const t = setup({ loginWindow: true })
    await t.connected()
    await t.popup('lock')
    expect(await t.rpc('personal_sign', ['0x68656c6c6f', ACCOUNT.address], OTHER)).toMatchObject({ error: { code: 4100 } })
    expect(t.loginWindows).toHaveLength(0)
  })

  it('a platform without a login window still answers 4100 at once', async () => {
    const t = setup()
    await t.connected()
    await t.popup('lock')
    expect(await t.rpc('personal_sign', ['0x68656c6c6f', ACCOUNT.address])).toEqual({
      error: { code: 4100, message: 'Unauthorized: not logged in' },
    })
  })
})
