/** Popup rows: connected sites with Disconnect. */
import { describe, expect, it } from 'vitest'
import { ACCOUNT, ORIGIN, OTHER, setup } from '../../approvalFixture'

describe('connected sites (popup)', () => {
  it("lists the granted origin with its account and chain; Disconnect revokes it and tells the site's tab", {
    timeout: 30_000,
  }, async () => {
    const t = setup()
    await t.connected()
    const listed = await t.popup('connectedSites')
    expect(listed).toMatchObject({
      ok: true,
      result: {
        sites: [
          { origin: ORIGIN, evm: { accounts: [{ address: ACCOUNT.address, name: 'Account 1' }], chain: { chainId: '0x1' } }, solana: null },
        ],
      },
    })
    expect(await t.popup('disconnectSite', { origin: OTHER.origin })).toEqual({ ok: true, result: { disconnected: false } })
    expect(await t.popup('disconnectSite', { origin: ORIGIN })).toEqual({ ok: true, result: { disconnected: true } })
    expect(t.events.at(-1)).toEqual({ tabId: 7, message: { kind: 'provider-event', event: 'accountsChanged', data: [] } })
    expect(await t.rpc('eth_accounts')).toEqual({ result: [] })
    expect(await t.popup('connectedSites')).toMatchObject({ ok: true, result: { sites: [] } })
  })

  it('needs a session', async () => {
    const t = setup()
    expect(await t.popup('connectedSites')).toMatchObject({ ok: false, error: { code: 'NOT_LOGGED_IN' } })
    expect(await t.popup('disconnectSite', { origin: ORIGIN })).toMatchObject({ ok: false, error: { code: 'NOT_LOGGED_IN' } })
  })
})
