/** The account book: grouping per path index, numbering across wallets, names and hidden flags per user, migration. */
import { describe, expect, it } from 'vitest'
import type { SigilClient } from '@/src/api/client'
import type { ActiveSession } from '@/src/extension/background/core'
import {
  ACCOUNT_BOOK_KEY,
  accountBook,
  accountNameMap,
  defaultPathIndex,
  namedAccounts,
  nameOf,
  renameGroup,
  setGroupHidden,
} from '@/src/extension/background/wallet/accountBook'
import { ACCOUNT_NAMES_KEY } from '@/src/extension/background/wallet/accountNames'
import { memoryArea } from '../../fakeDeps'

const EVM0 = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94'
const EVM1 = '0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0'
const SOL0 = 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk'
const SOL1 = 'Hh8QwFUA6MtVu1qAoq12ucvFHNwCcVTV7hpWjeY1Hztb'
const BTC0 = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'
const EVM_W2 = '0x1111111111111111111111111111111111111111'
const KEY_EVM = '0x2222222222222222222222222222222222222222'

type Acc = { walletAccountId: string; address: string; addressFormat: string; path: string; curve: string }
const acc = (id: string, address: string, addressFormat: string, path: string): Acc => ({
  walletAccountId: id,
  address,
  addressFormat,
  path,
  curve: addressFormat === 'ADDRESS_FORMAT_SOLANA' ? 'CURVE_ED25519' : 'CURVE_SECP256K1',
})

function fakeClient(
  wallets: Array<{ walletId: string; walletName: string; accounts: Acc[] }>,
  keys: Array<{ privateKeyId: string; privateKeyName: string; addresses: Array<{ format: string; address: string }> }> = [],
): SigilClient {
  return {
    listWallets: async () => ({ wallets: wallets.map((w) => ({ walletId: w.walletId, walletName: w.walletName })) }),
    listWalletAccounts: async ({ walletId }: { walletId: string }) => ({
      accounts: wallets.find((w) => w.walletId === walletId)?.accounts ?? [],
    }),
    listPrivateKeys: async () => ({ privateKeys: keys }),
  } as unknown as SigilClient
}

const session = (userId = 'user-1') => ({ record: { organizationId: 'org-1', userId } }) as unknown as ActiveSession

const W1 = {
  walletId: 'w1',
  walletName: 'Default Wallet',
  accounts: [
    acc('a1', EVM0, 'ADDRESS_FORMAT_ETHEREUM', "m/44'/60'/0'/0/0"),
    acc('a2', SOL0, 'ADDRESS_FORMAT_SOLANA', "m/44'/501'/0'/0'"),
    acc('a3', BTC0, 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH', "m/84'/0'/0'/0/0"),
    acc('a5', SOL1, 'ADDRESS_FORMAT_SOLANA', "m/44'/501'/1'/0'"),
    acc('a4', EVM1, 'ADDRESS_FORMAT_ETHEREUM', "m/44'/60'/0'/0/1"),
  ],
}
const W2 = { walletId: 'w2', walletName: 'Savings', accounts: [acc('b1', EVM_W2, 'ADDRESS_FORMAT_ETHEREUM', "m/44'/60'/0'/0/0")] }

describe('account book', () => {
  it('reads the account index of the default EVM and Solana paths only', () => {
    expect(defaultPathIndex('ADDRESS_FORMAT_ETHEREUM', "m/44'/60'/0'/0/7")).toBe(7)
    expect(defaultPathIndex('ADDRESS_FORMAT_SOLANA', "m/44'/501'/3'/0'")).toBe(3)
    expect(defaultPathIndex('ADDRESS_FORMAT_ETHEREUM', "m/44'/60'/1'/0/0")).toBeUndefined()
    expect(defaultPathIndex('ADDRESS_FORMAT_SOLANA', "m/44'/501'/0'")).toBeUndefined()
    expect(defaultPathIndex('ADDRESS_FORMAT_SOLANA', "m/44'/501'/0/0'")).toBeUndefined()
    expect(defaultPathIndex('ADDRESS_FORMAT_ETHEREUM', 'not a path')).toBeUndefined()
  })

  it('groups one EVM and one Solana address per path index, numbers groups across wallets, keeps Bitcoin apart', async () => {
    const local = memoryArea()
    const book = await accountBook(
      fakeClient(
        [W1, W2],
        [{ privateKeyId: 'pk1', privateKeyName: 'Old key', addresses: [{ format: 'ADDRESS_FORMAT_ETHEREUM', address: KEY_EVM }] }],
      ),
      session(),
      local,
    )
    expect(book.groups.map((g) => [g.group, g.name, g.kind, g.addresses.map((a) => a.address)])).toEqual([
      ['w1/0', 'Account 1', 'derived', [EVM0, SOL0]],
      ['w1/1', 'Account 2', 'derived', [EVM1, SOL1]],
      ['w2/0', 'Account 3', 'derived', [EVM_W2]],
      ['pk1', 'Account 4', 'imported', [KEY_EVM]],
    ])
    expect(book.other).toEqual([
      {
        walletId: 'w1',
        walletName: 'Default Wallet',
        address: BTC0,
        addressFormat: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH',
        path: "m/84'/0'/0'/0/0",
      },
    ])
  })

  it('keeps a number once given: a new account of the first wallet does not rename the second wallet', async () => {
    const local = memoryArea()
    await accountBook(fakeClient([W1, W2]), session(), local)
    const grown = {
      ...W1,
      accounts: [...W1.accounts, acc('a6', '0x3333333333333333333333333333333333333333', 'ADDRESS_FORMAT_ETHEREUM', "m/44'/60'/0'/0/2")],
    }
    const book = await accountBook(fakeClient([grown, W2]), session(), local)
    expect(book.groups.map((g) => [g.group, g.name])).toEqual([
      ['w1/0', 'Account 1'],
      ['w1/1', 'Account 2'],
      ['w1/2', 'Account 4'],
      ['w2/0', 'Account 3'],
    ])
  })

  it('renames and hides a group per user in a versioned record; an empty name goes back to the default', async () => {
    const local = memoryArea()
    const client = fakeClient([W1])
    await accountBook(client, session(), local)
    await renameGroup(local, session(), { group: 'w1/1', name: '  Savings ' })
    await setGroupHidden(local, session(), { group: 'w1/0', hidden: true })
    const named = await namedAccounts(client, session(), local)
    expect(named.map((a) => [a.address, a.name, a.hidden])).toEqual([
      [EVM0, 'Account 1', true],
      [SOL0, 'Account 1', true],
      [EVM1, 'Savings', false],
      [SOL1, 'Savings', false],
    ])
    const stored = (await local.get(ACCOUNT_BOOK_KEY))[ACCOUNT_BOOK_KEY] as { v: number; users: Record<string, unknown> }
    expect(stored.v).toBe(1)
    expect(Object.keys(stored.users)).toEqual(['org-1/user-1'])
    // another user of the same profile sees none of it
    expect((await namedAccounts(client, session('user-2'), local)).map((a) => [a.name, a.hidden])[2]).toEqual(['Account 2', false])
    await renameGroup(local, session(), { group: 'w1/1', name: '' })
    await setGroupHidden(local, session(), { group: 'w1/0', hidden: false })
    expect((await namedAccounts(client, session(), local)).map((a) => [a.name, a.hidden])).toEqual([
      ['Account 1', false],
      ['Account 1', false],
      ['Account 2', false],
      ['Account 2', false],
    ])
    await expect(renameGroup(local, session(), { group: 'w1/1', name: 'x'.repeat(33) })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'name',
    })
    await expect(renameGroup(local, session(), { group: 'nope', name: 'x' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'group',
    })
  })

  it("carries the older per-address names over to their groups once and drops the user's old entry", async () => {
    const local = memoryArea()
    await local.set({
      [ACCOUNT_NAMES_KEY]: {
        v: 1,
        users: { 'org-1/user-1': { [SOL1]: 'Trading', [EVM0.toLowerCase()]: 'Main' }, 'org-1/user-2': { [EVM0]: 'Theirs' } },
      },
    })
    const named = await namedAccounts(fakeClient([W1]), session(), local)
    expect([...new Set(named.map((a) => a.name))]).toEqual(['Main', 'Trading'])
    expect((await local.get(ACCOUNT_NAMES_KEY))[ACCOUNT_NAMES_KEY]).toEqual({ v: 1, users: { 'org-1/user-2': { [EVM0]: 'Theirs' } } })
    const names = accountNameMap(named)
    expect(nameOf(names, EVM0.toLowerCase())).toBe('Main')
    expect(nameOf(names, SOL1)).toBe('Trading')
    expect(nameOf(names, SOL1.toLowerCase())).toBeUndefined()
  })

  it('hands out distinct numbers when two readers first see accounts at once', async () => {
    const local = memoryArea()
    const [a, b] = await Promise.all([accountBook(fakeClient([W1]), session(), local), accountBook(fakeClient([W1, W2]), session(), local)])
    expect(a.groups.map((g) => g.name)).toEqual(['Account 1', 'Account 2'])
    expect(b.groups.map((g) => g.name)).toEqual(['Account 1', 'Account 2', 'Account 3'])
  })
})
