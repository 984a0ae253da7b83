/** The popup rows of the account book through the background's closed table: list, rename, hide, names by address. */
import { describe, expect, it } from 'vitest'
import { ACCOUNT_BOOK_KEY } from '@/src/extension/background/wallet/accountBook'
import { ACCOUNT_NAMES_KEY } from '@/src/extension/background/wallet/accountNames'
import { ACCOUNT, setup } from '../../approvalFixture'

const SOL = 'So11111111111111111111111111111111111111112'

describe('account book (popup)', () => {
  it('lists one named account with its Ethereum and Solana addresses; renames it per user (trimmed, at most 32) and hides it', async () => {
    const t = setup()
    await t.login()
    const listed = await t.popup('accountBook')
    expect(listed).toMatchObject({ ok: true, result: { other: [] } })
    expect(listed.result.groups.map((g: any) => [g.group, g.name, g.hidden, g.addresses.map((a: any) => a.address)])).toEqual([
      ['w1/0', 'Account 1', false, [ACCOUNT.address, SOL]],
    ])
    expect(await t.popup('accountNames')).toEqual({
      ok: true,
      result: { names: { [ACCOUNT.address]: 'Account 1', [ACCOUNT.address.toLowerCase()]: 'Account 1', [SOL]: 'Account 1' } },
    })
    expect(await t.popup('renameAccount', { group: 'w1/0', name: '  Savings ' })).toEqual({
      ok: true,
      result: { group: 'w1/0', name: 'Savings' },
    })
    expect(await t.popup('renameAccount', { group: 'w1/0', name: 'x'.repeat(33) })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', field: 'name' },
    })
    expect(await t.popup('renameAccount', { address: ACCOUNT.address, name: 'old shape' })).toMatchObject({ ok: false })
    expect(await t.popup('hideAccount', { group: 'w1/0', hidden: true })).toEqual({ ok: true, result: { group: 'w1/0', hidden: true } })
    const after = await t.popup('accountBook')
    expect(after.result.groups.map((g: any) => [g.name, g.named, g.hidden])).toEqual([['Savings', true, true]])
    const stored = (await t.f.deps.local.get(ACCOUNT_BOOK_KEY))[ACCOUNT_BOOK_KEY] as { v: number; users: Record<string, unknown> }
    expect(stored.v).toBe(1)
    expect(stored.users).toEqual({
      'org-1/user-1': { next: 2, groups: { 'w1/0': { n: 1, name: 'Savings', hidden: true } }, namesMigrated: true },
    })
    expect(await t.popup('renameAccount', { group: 'w1/0', name: '' })).toEqual({ ok: true, result: { group: 'w1/0', name: '' } })
    expect((await t.popup('accountBook')).result.groups[0].name).toBe('Account 1')
  })

  it("carries a name from the older per-address record over to the address's account", async () => {
    const t = setup()
    await t.f.deps.local.set({ [ACCOUNT_NAMES_KEY]: { v: 1, users: { 'org-1/user-1': { [SOL]: 'Trading' } } } })
    await t.login()
    expect((await t.popup('accountBook')).result.groups[0].name).toBe('Trading')
    expect((await t.f.deps.local.get(ACCOUNT_NAMES_KEY))[ACCOUNT_NAMES_KEY]).toBeUndefined()
  })

  it('needs a session', async () => {
    const t = setup()
    for (const [m, p] of [
      ['accountBook', undefined],
      ['renameAccount', { group: 'w1/0', name: 'x' }],
      ['hideAccount', { group: 'w1/0', hidden: true }],
      ['createWallet', { walletName: 'x' }],
      ['importPrivateKey', { name: 'x', addressFormat: 'ADDRESS_FORMAT_ETHEREUM', privateKey: '11'.repeat(32) }],
    ] as const) {
      expect(await t.popup(m, p)).toMatchObject({ ok: false, error: { code: 'NOT_LOGGED_IN' } })
    }
  })
})
