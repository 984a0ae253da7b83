import { describe, expect, it, vi } from 'vitest'
import { ACCOUNT, ORIGIN, setup } from '../../approvalFixture'

/** eth_requestAccounts while logged out opens Sigil's login window and goes on after the login. */
describe('connecting while logged out', () => {
  const loginWindowOpened = async (t: ReturnType<typeof setup>) =>
    vi.waitFor(
      () => {
        if (t.loginWindows.length === 0) throw new Error('waiting for the login window')
      },
      { timeout: 10_000 },
    )

  it('opens the login window, then the approval window bound to the request after the login', async () => {
    const t = setup({ loginWindow: true })
    const pending = t.rpc('eth_requestAccounts')
    await loginWindowOpened(t)
    expect(t.windows).toHaveLength(0)
    const status = await t.popup('getStatus')
    expect(status.result).toMatchObject({ loggedIn: false, loginWanted: [ORIGIN] })
    // a second request of the same site waits for the same login (no second login window)
    const second = t.rpc('eth_requestAccounts')
    await vi.waitFor(() => expect(t.bg.dapp.loginWanted()).toEqual([ORIGIN]))
    await t.login()
    const w = await t.windowOpened(1)
    expect(t.closed).toContain(t.loginWindows[0])
    expect(t.loginWindows).toHaveLength(1)
    expect(await t.popup('approvalGet', { id: w.approvalId })).toMatchObject({
      ok: true,
      result: { origin: ORIGIN, method: 'eth_requestAccounts' },
    })
    await t.popup('approvalResolve', { id: w.approvalId, approved: true })
    // the other request goes on to its own approval in the same window (or, asked after the
    // connection, gets the accounts at once): which of the two the window showed first varies
    const next = (await t.popup('approvalShown', { id: w.approvalId })).result
    if (next.id !== null) {
      expect(next.id).not.toBe(w.approvalId)
      expect(await t.popup('approvalGet', { id: next.id })).toMatchObject({ ok: true, result: { method: 'eth_requestAccounts' } })
      await t.popup('approvalResolve', { id: next.id, approved: true })
    }
    expect(await Promise.all([pending, second])).toEqual([{ result: [ACCOUNT.address] }, { result: [ACCOUNT.address] }])
    expect(t.windows).toHaveLength(1)
    expect((await t.popup('getStatus')).result.loginWanted).toEqual([])
  })

  it('closing the login window rejects with 4001 and opens no approval', async () => {
    const t = setup({ loginWindow: true })
    const pending = t.rpc('eth_requestAccounts')
    await loginWindowOpened(t)
    t.bg.onWindowRemoved(t.loginWindows[0]!)
    expect(await pending).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
    // a later login continues nothing
    await t.login()
    expect(t.windows).toHaveLength(0)
    expect(t.loginWindows).toHaveLength(1)
  })

  it('no login within the approval timeout rejects with 4001', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const t = setup({ loginWindow: true })
      const pending = t.rpc('eth_requestAccounts')
      await vi.waitFor(
        () => {
          if (t.loginWindows.length === 0) throw new Error('waiting')
        },
        { timeout: 10_000 },
      )
      await vi.advanceTimersByTimeAsync(5 * 60_000 + 1)
      expect(await pending).toEqual({ error: { code: 4001, message: 'User rejected the request' } })
    } finally {
      vi.useRealTimers()
    }
  })

  it('a Solana connect waits for the login the same way; a silent one opens nothing', async () => {
    const t = setup({ loginWindow: true })
    expect(await t.rpc('sol_connect', [{ silent: true }])).toMatchObject({ result: { accounts: [] } })
    expect(t.loginWindows).toHaveLength(0)
    const pending = t.rpc('sol_connect', [])
    await loginWindowOpened(t)
    t.bg.onWindowRemoved(t.loginWindows[0]!)
    expect(await pending).toMatchObject({ error: { code: 4001 } })
  })

  it('a platform without a login window still answers 4100 at once', async () => {
    const t = setup()
    expect(await t.rpc('eth_requestAccounts')).toEqual({ error: { code: 4100, message: 'Unauthorized: not logged in' } })
    expect(t.loginWindows).toHaveLength(0)
  })
})
