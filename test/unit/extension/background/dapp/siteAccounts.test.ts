/**
 * The accounts each site sees: the connect windows offer the user's accounts by name and grant
 * the ones chosen (only those offered), grants of one address are read as grants of that account,
 * and the popup switches, adds and removes a site's accounts (the site hears of it, its pending
 * requests are rejected) and disconnects either family.
 */
import { base58, base64 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { PERMISSIONS_KEY, readGrant } from '@/src/extension/background/dapp/evm/permissions'
import { readSolanaGrant, SOLANA_PERMISSIONS_KEY } from '@/src/extension/background/dapp/solana/permissions'
import type { ActiveSession } from '@/src/extension/background/core'
import { setGroupHidden } from '@/src/extension/background/wallet/accountBook'
import { ACCOUNT, account, ORIGIN, OTHER, setup } from '../../approvalFixture'

const SECOND = '0x2222222222222222222222222222222222222222'
const FOREIGN = '0x3333333333333333333333333333333333333333'
const SOL1 = base58.encode(new Uint8Array(32).fill(1))
const SOL2 = base58.encode(new Uint8Array(32).fill(2))
const wire = (address: string) => ({ address, publicKey: base64.encode(base58.decode(address)) })

/** A background whose wallet has two accounts (index 0 and 1), each with an EVM and a Solana address. */
function twoAccounts() {
  return setup({
    routes: (path) =>
      path === '/public/v1/query/list_wallet_accounts'
        ? {
            accounts: [
              account('e0', ACCOUNT.address, 'ADDRESS_FORMAT_ETHEREUM'),
              account('s0', SOL1, 'ADDRESS_FORMAT_SOLANA'),
              account('e1', SECOND, 'ADDRESS_FORMAT_ETHEREUM', "m/44'/60'/0'/0/1"),
              account('s1', SOL2, 'ADDRESS_FORMAT_SOLANA', "m/44'/501'/1'/0'"),
            ],
          }
        : undefined,
  })
}

type T = ReturnType<typeof twoAccounts>

/** Ask `method` from PAGE and return the pending reply and the approval id of its window. */
async function asked(t: T, method: string, params: unknown) {
  const reply = t.rpc(method, params)
  const w = await t.windowOpened(t.windows.length + 1)
  return { reply, id: w.approvalId }
}

describe('grants of one address (version 1) are read as grants of that account', () => {
  it('EVM and Solana grants keep working after the update and are written back in the new form', async () => {
    const t = twoAccounts()
    t.f.deps.local.data.set(PERMISSIONS_KEY, { v: 1, origins: { [ORIGIN]: { address: SECOND, organizationId: 'org-1', grantedAt: 5 } } })
    t.f.deps.local.data.set(SOLANA_PERMISSIONS_KEY, {
      v: 1,
      origins: { [ORIGIN]: { address: SOL2, organizationId: 'org-1', grantedAt: 6 } },
    })
    await t.login()
    expect(await t.rpc('eth_accounts')).toEqual({ result: [SECOND] })
    expect(await t.rpc('sol_state', [])).toMatchObject({ result: { accounts: [wire(SOL2)] } })
    expect(await readGrant(t.f.deps.local, ORIGIN)).toEqual({ accounts: [SECOND], organizationId: 'org-1', grantedAt: 5 })
    expect(await readSolanaGrant(t.f.deps.local, ORIGIN)).toEqual({ accounts: [SOL2], organizationId: 'org-1', grantedAt: 6 })
    // a change stores the record in the new form
    expect(await t.popup('setSiteAccounts', { origin: ORIGIN, family: 'evm', accounts: [ACCOUNT.address, SECOND] })).toMatchObject({
      ok: true,
    })
    expect(t.f.deps.local.data.get(PERMISSIONS_KEY)).toEqual({
      v: 2,
      origins: { [ORIGIN]: { accounts: [ACCOUNT.address, SECOND], organizationId: 'org-1', grantedAt: 5 } },
    })
  })

  it('a record that is neither form is read as no grant', async () => {
    const t = twoAccounts()
    t.f.deps.local.data.set(PERMISSIONS_KEY, { v: 1, origins: { [ORIGIN]: { address: 'not-an-address', organizationId: 'org-1' } } })
    await t.login()
    expect(await t.rpc('eth_accounts')).toEqual({ result: [] })
  })
})

describe('the connect window offers the user accounts and grants only what it offered', () => {
  it('EVM: both accounts by name, the first checked; a foreign, Solana, empty or duplicated choice is refused; the second is granted', async () => {
    const t = twoAccounts()
    await t.login()
    const { reply, id } = await asked(t, 'eth_requestAccounts', undefined)
    expect(await t.popup('approvalGet', { id })).toMatchObject({
      ok: true,
      result: {
        view: {
          kind: 'connect',
          accounts: [
            { address: ACCOUNT.address, name: 'Account 1' },
            { address: SECOND, name: 'Account 2' },
          ],
          selected: [ACCOUNT.address],
        },
      },
    })
    for (const accounts of [[FOREIGN], [SOL1], [SECOND, SECOND.toUpperCase().replace('0X', '0x')]]) {
      const refused = await t.popup('approvalResolve', { id, approved: true, accounts })
      expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT', field: 'accounts' } })
      expect(refused.error.message).toMatch(/^accounts: /)
    }
    expect(await t.popup('approvalResolve', { id, approved: true, accounts: [] })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', field: 'accounts' },
    })
    // nothing was granted and the request still waits for its answer
    expect(await readGrant(t.f.deps.local, ORIGIN)).toBeUndefined()
    expect(await t.popup('approvalResolve', { id, approved: true, accounts: [SECOND.toLowerCase()] })).toEqual({
      ok: true,
      result: { settled: true },
    })
    // spelled as offered (checksummed), the chosen account only
    expect(await reply).toEqual({ result: [SECOND] })
    expect(await t.rpc('eth_accounts')).toEqual({ result: [SECOND] })
    expect(t.events).toContainEqual({ tabId: 7, message: { kind: 'provider-event', event: 'accountsChanged', data: [SECOND] } })
    expect(await t.rpc('wallet_getPermissions')).toMatchObject({
      result: [{ parentCapability: 'eth_accounts', caveats: [{ type: 'restrictReturnedAccounts', value: [SECOND] }] }],
    })
  })

  it('EVM: several accounts are granted in the order sent, the first active; wallet_requestPermissions asks again with them checked', async () => {
    const t = twoAccounts()
    await t.login()
    const first = await asked(t, 'eth_requestAccounts', undefined)
    await t.popup('approvalResolve', { id: first.id, approved: true, accounts: [SECOND, ACCOUNT.address] })
    expect(await first.reply).toEqual({ result: [SECOND, ACCOUNT.address] })
    // connected: eth_requestAccounts answers without a window
    expect(await t.rpc('eth_requestAccounts')).toEqual({ result: [SECOND, ACCOUNT.address] })
    const again = await asked(t, 'wallet_requestPermissions', [{ eth_accounts: {} }])
    expect((await t.popup('approvalGet', { id: again.id })).result.view.selected).toEqual([SECOND, ACCOUNT.address])
    await t.popup('approvalResolve', { id: again.id, approved: true, accounts: [ACCOUNT.address] })
    expect(await again.reply).toMatchObject({ result: [{ caveats: [{ value: [ACCOUNT.address] }] }] })
    expect(await t.rpc('eth_accounts')).toEqual({ result: [ACCOUNT.address] })
  })

  it('a hidden account is not offered and cannot be chosen', async () => {
    const t = twoAccounts()
    await t.login()
    const session = { record: { organizationId: 'org-1', userId: 'user-1' } } as unknown as ActiveSession
    // the book numbers the groups on first read; hide the second (index 1 of wallet w1)
    expect(await t.popup('connectedSites')).toMatchObject({ ok: true })
    await setGroupHidden(t.f.deps.local, session, { group: 'w1/1', hidden: true })
    const { reply, id } = await asked(t, 'eth_requestAccounts', undefined)
    expect((await t.popup('approvalGet', { id })).result.view.accounts).toEqual([{ address: ACCOUNT.address, name: 'Account 1' }])
    expect(await t.popup('approvalResolve', { id, approved: true, accounts: [SECOND] })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', field: 'accounts' },
    })
    expect((await t.popup('connectedSites')).result.choices.solana).toEqual([{ address: SOL1, name: 'Account 1' }])
    await t.popup('approvalResolve', { id, approved: false })
    expect(await reply).toMatchObject({ error: { code: 4001 } })
  })

  it('a choice on a request that chooses no accounts is refused', async () => {
    const t = twoAccounts()
    await t.connected()
    const { id } = await asked(t, 'personal_sign', ['0x68656c6c6f', ACCOUNT.address])
    expect(await t.popup('approvalResolve', { id, approved: true, accounts: [ACCOUNT.address] })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', field: 'accounts' },
    })
    // a rejection needs no choice
    expect(await t.popup('approvalResolve', { id, approved: false })).toEqual({ ok: true, result: { settled: true } })
  })

  it('Solana: both accounts offered; an EVM address is refused; the second is granted and pushed to the page', async () => {
    const t = twoAccounts()
    await t.login()
    const { reply, id } = await asked(t, 'sol_connect', [])
    expect((await t.popup('approvalGet', { id })).result.view).toMatchObject({
      kind: 'solanaConnect',
      accounts: [
        { address: SOL1, name: 'Account 1' },
        { address: SOL2, name: 'Account 2' },
      ],
      selected: [SOL1],
    })
    expect(await t.popup('approvalResolve', { id, approved: true, accounts: [ACCOUNT.address] })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', field: 'accounts' },
    })
    await t.popup('approvalResolve', { id, approved: true, accounts: [SOL2] })
    expect(await reply).toEqual({ result: { accounts: [wire(SOL2)] } })
    expect(t.events.at(-1)).toMatchObject({ tabId: 7, message: { event: 'solanaAccountsChanged', data: [wire(SOL2)] } })
  })
})

describe('switching and disconnecting from the popup (Sites)', () => {
  async function connectedBoth(t: T) {
    await t.login()
    const evm = await asked(t, 'eth_requestAccounts', undefined)
    await t.popup('approvalResolve', { id: evm.id, approved: true, accounts: [ACCOUNT.address, SECOND] })
    await evm.reply
    const sol = await asked(t, 'sol_connect', [])
    await t.popup('approvalResolve', { id: sol.id, approved: true, accounts: [SOL1] })
    await sol.reply
  }

  it('Sites lists both grants by name with the accounts that may be given', async () => {
    const t = twoAccounts()
    await connectedBoth(t)
    expect(await t.popup('connectedSites')).toMatchObject({
      ok: true,
      result: {
        sites: [
          {
            origin: ORIGIN,
            evm: {
              accounts: [
                { address: ACCOUNT.address, name: 'Account 1' },
                { address: SECOND, name: 'Account 2' },
              ],
              chain: { chainId: '0x1' },
            },
            solana: { accounts: [{ address: SOL1, name: 'Account 1' }] },
          },
        ],
        choices: { evm: [{ address: ACCOUNT.address }, { address: SECOND }], solana: [{ address: SOL1 }, { address: SOL2 }] },
      },
    })
  })

  it("switching the active account tells the site the new order and rejects the site's pending request", async () => {
    const t = twoAccounts()
    await connectedBoth(t)
    const pending = await asked(t, 'personal_sign', ['0x68656c6c6f', ACCOUNT.address])
    expect(await t.popup('setSiteAccounts', { origin: ORIGIN, family: 'evm', accounts: [SECOND, ACCOUNT.address] })).toEqual({
      ok: true,
      result: {
        accounts: [
          { address: SECOND, name: 'Account 2' },
          { address: ACCOUNT.address, name: 'Account 1' },
        ],
      },
    })
    expect(await pending.reply).toMatchObject({ error: { code: 4001 } })
    expect(await t.popup('approvalGet', { id: pending.id })).toMatchObject({ ok: false })
    expect(t.events.at(-1)).toEqual({
      tabId: 7,
      message: { kind: 'provider-event', event: 'accountsChanged', data: [SECOND, ACCOUNT.address] },
    })
    expect(await t.rpc('eth_accounts')).toEqual({ result: [SECOND, ACCOUNT.address] })
    expect(await t.rpc('wallet_getPermissions')).toMatchObject({ result: [{ caveats: [{ value: [SECOND, ACCOUNT.address] }] }] })
  })

  it('Solana: adding the second account pushes both to the page (the Wallet Standard change event)', async () => {
    const t = twoAccounts()
    await connectedBoth(t)
    await t.popup('setSiteAccounts', { origin: ORIGIN, family: 'solana', accounts: [SOL2, SOL1] })
    expect(t.events.at(-1)).toEqual({
      tabId: 7,
      message: { kind: 'provider-event', event: 'solanaAccountsChanged', data: [wire(SOL2), wire(SOL1)] },
    })
    expect(await t.rpc('sol_state', [])).toMatchObject({ result: { accounts: [wire(SOL2), wire(SOL1)] } })
  })

  it('refuses a foreign address, an address of the other family, an empty list and a site that is not connected', async () => {
    const t = twoAccounts()
    await connectedBoth(t)
    const before = t.events.length
    for (const [family, accounts] of [
      ['evm', [FOREIGN]],
      ['evm', [SOL1]],
      ['solana', [SECOND]],
      ['evm', [SECOND, SECOND]],
    ] as const) {
      expect(await t.popup('setSiteAccounts', { origin: ORIGIN, family, accounts })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_ARGUMENT', field: 'accounts' },
      })
    }
    expect(await t.popup('setSiteAccounts', { origin: ORIGIN, family: 'evm', accounts: [] })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    })
    expect(await t.popup('setSiteAccounts', { origin: OTHER.origin, family: 'evm', accounts: [SECOND] })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', field: 'origin' },
    })
    expect(t.events.length).toBe(before)
    expect(await t.rpc('eth_accounts')).toEqual({ result: [ACCOUNT.address, SECOND] })
  })

  it('disconnects one family or both; each tells its side of the page', async () => {
    const t = twoAccounts()
    await connectedBoth(t)
    expect(await t.popup('disconnectSite', { origin: ORIGIN, family: 'solana' })).toEqual({ ok: true, result: { disconnected: true } })
    expect(t.events.at(-1)).toMatchObject({ message: { event: 'solanaAccountsChanged', data: [] } })
    expect(await t.rpc('eth_accounts')).toEqual({ result: [ACCOUNT.address, SECOND] })
    expect((await t.popup('connectedSites')).result.sites).toMatchObject([{ origin: ORIGIN, solana: null }])
    const sol = await asked(t, 'sol_connect', [])
    await t.popup('approvalResolve', { id: sol.id, approved: true })
    await sol.reply
    const events = t.events.length
    expect(await t.popup('disconnectSite', { origin: ORIGIN })).toEqual({ ok: true, result: { disconnected: true } })
    expect(t.events.slice(events).map((e) => [e.message.event, e.message.data])).toEqual([
      ['accountsChanged', []],
      ['solanaAccountsChanged', []],
    ])
    expect((await t.popup('connectedSites')).result.sites).toEqual([])
  })
})

describe('Sites without the account list', () => {
  it('still lists the site by address and disconnects it when the service cannot list accounts', async () => {
    let down = false
    const t = setup({
      routes: (path) => (down && path === '/public/v1/query/list_wallets' ? { error: 'unavailable' } : undefined),
    })
    await t.connected()
    down = true
    expect(await t.popup('connectedSites')).toMatchObject({
      ok: true,
      result: {
        sites: [{ origin: ORIGIN, evm: { accounts: [{ address: ACCOUNT.address, name: ACCOUNT.address }] } }],
        choices: { evm: [] },
      },
    })
    expect(await t.popup('disconnectSite', { origin: ORIGIN })).toEqual({ ok: true, result: { disconnected: true } })
  })
})

describe('what a site is offered', () => {
  it('offers visible derived accounts of the family, never an imported private key (the service sends from wallet accounts only)', async () => {
    const { optionsOf } = await import('@/src/extension/background/dapp/siteAccounts')
    const row = (address: string, kind: 'derived' | 'imported', hidden = false) => ({
      address,
      addressFormat: 'ADDRESS_FORMAT_ETHEREUM' as const,
      walletId: kind === 'derived' ? 'w1' : 'pk1',
      walletName: 'W',
      group: kind === 'derived' ? `w1/${address}` : 'pk1',
      name: `n-${address}`,
      hidden,
      kind,
    })
    const options = optionsOf([row(ACCOUNT.address, 'derived'), row(SECOND, 'imported'), row(FOREIGN, 'derived', true)], 'evm')
    expect(options).toEqual([{ address: ACCOUNT.address, name: `n-${ACCOUNT.address}` }])
  })
})
