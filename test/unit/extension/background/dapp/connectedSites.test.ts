/** Popup rows: connected sites with Disconnect, and account names per user. */
import { describe, expect, it } from 'vitest'
import { ACCOUNT_NAMES_KEY } from '@/src/extension/background/wallet/accountNames'
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
      result: { sites: [{ origin: ORIGIN, accounts: [ACCOUNT.address], chain: { chainId: '0x1' } }] },
    })
    expect(await t.popup('disconnectSite', { origin: OTHER.origin })).toEqual({ ok: true, result: { disconnected: false } })
    expect(await t.popup('disconnectSite', { origin: ORIGIN })).toEqual({ ok: true, result: { disconnected: true } })
    expect(t.events.at(-1)).toEqual({ tabId: 7, message: { kind: 'provider-event', event: 'accountsChanged', data: [] } })
    expect(await t.rpc('eth_accounts')).toEqual({ result: [] })
    expect(await t.popup('connectedSites')).toEqual({ ok: true, result: { sites: [] } })
  })

  it('needs a session', async () => {
    const t = setup()
    expect(await t.popup('connectedSites')).toMatchObject({ ok: false, error: { code: 'NOT_LOGGED_IN' } })
    expect(await t.popup('disconnectSite', { origin: ORIGIN })).toMatchObject({ ok: false, error: { code: 'NOT_LOGGED_IN' } })
  })
})

describe('account names (popup)', () => {
  it('stores a name per user in a versioned record; an empty name goes back to the default', async () => {
    const t = setup()
    await t.login()
    expect(await t.popup('accountNames')).toEqual({ ok: true, result: { names: {} } })
    expect(await t.popup('renameAccount', { address: ACCOUNT.address, name: '  Savings ' })).toEqual({
      ok: true,
      result: { names: { [ACCOUNT.address]: 'Savings' } },
    })
    expect(await t.popup('accountNames')).toEqual({ ok: true, result: { names: { [ACCOUNT.address]: 'Savings' } } })
    const stored = (await t.f.deps.local.get(ACCOUNT_NAMES_KEY))[ACCOUNT_NAMES_KEY] as { v: number; users: Record<string, unknown> }
    expect(stored.v).toBe(1)
    expect(Object.values(stored.users)).toEqual([{ [ACCOUNT.address]: 'Savings' }])
    expect(await t.popup('renameAccount', { address: ACCOUNT.address, name: 'x'.repeat(33) })).toMatchObject({ ok: false })
    expect(await t.popup('renameAccount', { address: ACCOUNT.address, name: '' })).toEqual({ ok: true, result: { names: {} } })
  })
})
