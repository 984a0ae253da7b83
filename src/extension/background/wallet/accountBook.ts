/**
 * Accounts as people know them (MetaMask/Phantom grouping): one account = one wallet path index,
 * with one address per supported chain family — EVM at m/44'/60'/0'/0/i and Solana at
 * m/44'/501'/i'/0' — named once. An imported private key is an account of its own.
 *
 * Names are numbered across wallets in the order accounts first appear ("Account 1"…"Account N")
 * and the number is kept in `storage.local` once given, so adding an account to the first wallet
 * never renames another wallet's accounts. The user's names and hidden flags sit in the same
 * versioned per-user record (style.md habit 9); it holds public labels only, nothing secret.
 * Addresses of families the wallet cannot show or send (Bitcoin, …) are kept apart as `other`.
 */
import { z } from 'zod'
import type { SigilClient } from '../../../api/client'
import type { AddressFormat } from '../../../api/enums'
import { HARDENED, parsePath } from '../../../chains/path'
import type { ActiveSession } from '../core'
import { ExtensionError } from '../failures'
import type { StorageAreaLike } from '../storage/storageArea'
import { ACCOUNT_NAMES_KEY } from './accountNames'
import { listAccounts, type WalletView } from './accounts'

/** One account as people know it: a wallet's path index, one address per chain family (EVM, Solana), named once. */
export type NamedAccount = {
  address: string
  addressFormat: AddressFormat
  /** The wallet's id, or the private key's id for an imported private key. */
  walletId: string
  walletName: string
  /** Stable key of the account group: `${walletId}/${index}`, `${walletId}/${path}` off the default paths, or the private key id. */
  group: string
  /** The user's name or the default ("Account 2"), numbered per group, not per address. */
  name: string
  hidden: boolean
  /** A wallet's derived account, or an imported private key (which the service's send activities do not take). */
  kind: 'derived' | 'imported'
}

/** The chain families the wallet shows and sends, and the address format of each. */
export const SUPPORTED_FORMATS = ['ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_SOLANA'] as const satisfies readonly AddressFormat[]
export type SupportedFormat = (typeof SUPPORTED_FORMATS)[number]

/** Whether the wallet can show a balance and send from an address of `format`. */
export function isSupportedFormat(format: string): format is SupportedFormat {
  return (SUPPORTED_FORMATS as readonly string[]).includes(format)
}

/** One address of a group. */
export type GroupAddress = { walletAccountId?: string; address: string; addressFormat: SupportedFormat; path?: string }

/** One account group as the popup lists it. */
export type AccountGroup = {
  group: string
  walletId: string
  walletName: string
  /** Where it comes from: a wallet's derivation (`index` set on the default paths) or an imported private key. */
  kind: 'derived' | 'imported'
  index?: number
  name: string
  /** True when the user renamed it. */
  named: boolean
  hidden: boolean
  addresses: GroupAddress[]
}

/** An address of a chain family the wallet cannot show or send; listed as view-only. */
export type OtherAddress = { walletId: string; walletName: string; address: string; addressFormat: string; path?: string }

/** The book: groups in display order and the view-only addresses. */
export type AccountBook = { groups: AccountGroup[]; other: OtherAddress[] }

/** Storage key of the book record. */
export const ACCOUNT_BOOK_KEY = 'sigil.accountBook'
/** Version of the stored record. */
export const ACCOUNT_BOOK_VERSION = 1
/** Longest name kept. */
export const ACCOUNT_NAME_MAX = 32

const Entry = z.object({
  n: z.number().int().positive(),
  name: z.string().min(1).max(ACCOUNT_NAME_MAX).optional(),
  hidden: z.boolean().optional(),
})
const UserBook = z.object({
  next: z.number().int().positive(),
  groups: z.record(z.string().max(300), Entry),
  /** The per-address names of the older record were carried over. */
  namesMigrated: z.boolean(),
})
type UserBook = z.infer<typeof UserBook>
const Stored = z.object({ v: z.literal(ACCOUNT_BOOK_VERSION), users: z.record(z.string(), UserBook) })
const OldNames = z.object({ v: z.literal(1), users: z.record(z.string(), z.record(z.string(), z.string())) })

const userKey = (s: ActiveSession) => `${s.record.organizationId}/${s.record.userId}`
const emptyBook = (): UserBook => ({ next: 1, groups: {}, namesMigrated: false })

const EVM_PREFIX = parsePath("m/44'/60'/0'/0/0").slice(0, -1)
const SOLANA_PREFIX = parsePath("m/44'/501'/0'/0'").slice(0, 2)

/** The account index of a default EVM or Solana path, or undefined for any other path. */
export function defaultPathIndex(format: SupportedFormat, path: string): number | undefined {
  let idx: number[]
  try {
    idx = parsePath(path)
  } catch {
    return undefined
  }
  if (format === 'ADDRESS_FORMAT_ETHEREUM') {
    const last = idx[4]
    if (idx.length !== 5 || !EVM_PREFIX.every((v, i) => idx[i] === v) || last === undefined || last >= HARDENED) return undefined
    return last
  }
  const acct = idx[2]
  if (idx.length !== 4 || !SOLANA_PREFIX.every((v, i) => idx[i] === v) || idx[3] !== HARDENED) return undefined
  if (acct === undefined || acct < HARDENED) return undefined
  return acct - HARDENED
}

/** A private key as the book reads it (list_private_keys). */
export type KeyView = { privateKeyId: string; privateKeyName: string; addresses: Array<{ format: string; address: string }> }

type Draft = Omit<AccountGroup, 'name' | 'named' | 'hidden'>

/** Groups in display order (wallets in listed order, indexes ascending, then other paths, then imported keys) and the view-only rest. */
export function groupAccounts(wallets: readonly WalletView[], keys: readonly KeyView[]): { drafts: Draft[]; other: OtherAddress[] } {
  const drafts: Draft[] = []
  const other: OtherAddress[] = []
  for (const w of wallets) {
    const byIndex = new Map<number, Draft>()
    const offPath: Draft[] = []
    for (const a of w.accounts) {
      if (!isSupportedFormat(a.addressFormat)) {
        other.push({ walletId: w.walletId, walletName: w.walletName, address: a.address, addressFormat: a.addressFormat, path: a.path })
        continue
      }
      const entry: GroupAddress = { walletAccountId: a.walletAccountId, address: a.address, addressFormat: a.addressFormat, path: a.path }
      const index = defaultPathIndex(a.addressFormat, a.path)
      const existing = index === undefined ? undefined : byIndex.get(index)
      if (index !== undefined && existing && !existing.addresses.some((x) => x.addressFormat === a.addressFormat)) {
        existing.addresses.push(entry)
      } else if (index !== undefined && !existing) {
        byIndex.set(index, {
          group: `${w.walletId}/${index}`,
          walletId: w.walletId,
          walletName: w.walletName,
          kind: 'derived',
          index,
          addresses: [entry],
        })
      } else {
        offPath.push({
          group: `${w.walletId}/${a.path}`,
          walletId: w.walletId,
          walletName: w.walletName,
          kind: 'derived',
          addresses: [entry],
        })
      }
    }
    for (const [, d] of [...byIndex].sort(([x], [y]) => x - y)) {
      d.addresses.sort((x, y) => SUPPORTED_FORMATS.indexOf(x.addressFormat) - SUPPORTED_FORMATS.indexOf(y.addressFormat))
      drafts.push(d)
    }
    drafts.push(...offPath)
  }
  for (const k of keys) {
    const addresses: GroupAddress[] = []
    for (const a of k.addresses) {
      if (isSupportedFormat(a.format)) addresses.push({ address: a.address, addressFormat: a.format })
    }
    if (addresses.length === 0) continue
    drafts.push({ group: k.privateKeyId, walletId: k.privateKeyId, walletName: k.privateKeyName, kind: 'imported', addresses })
  }
  return { drafts, other }
}

const sameAddress = (a: string, b: string) => a === b || (a.startsWith('0x') && a.toLowerCase() === b.toLowerCase())

/**
 * Name the drafts from the user's book: a group seen for the first time gets the next number, and
 * per-address names of the older record are carried over once. Returns the groups and the book to
 * store (the same object when nothing changed).
 */
export function nameGroups(
  drafts: readonly Draft[],
  book: UserBook,
  oldNames: Record<string, string> | undefined,
): { groups: AccountGroup[]; book: UserBook } {
  let next = book.next
  const entries = { ...book.groups }
  let changed = false
  for (const d of drafts) {
    if (entries[d.group]) continue
    entries[d.group] = { n: next++ }
    changed = true
  }
  if (!book.namesMigrated && oldNames) {
    for (const d of drafts) {
      const e = entries[d.group]
      if (!e || e.name) continue
      const old = Object.entries(oldNames).find(([addr, name]) => name !== '' && d.addresses.some((x) => sameAddress(x.address, addr)))
      if (old) entries[d.group] = { ...e, name: old[1].slice(0, ACCOUNT_NAME_MAX) }
    }
  }
  if (!book.namesMigrated) changed = true
  const out = changed ? { next, groups: entries, namesMigrated: true } : book
  const groups = drafts.map((d): AccountGroup => {
    const e = out.groups[d.group] ?? { n: 0 }
    return { ...d, name: e.name ?? `Account ${e.n}`, named: e.name !== undefined, hidden: e.hidden === true }
  })
  return { groups, book: out }
}

/** Book writes run one after another per storage area, so two readers never hand out one number twice. */
const queues = new WeakMap<StorageAreaLike, Promise<unknown>>()
function serialized<T>(area: StorageAreaLike, fn: () => Promise<T>): Promise<T> {
  const prev = queues.get(area) ?? Promise.resolve()
  const run = prev.then(fn, fn)
  queues.set(
    area,
    run.catch(() => undefined),
  )
  return run
}

async function loadAll(area: StorageAreaLike): Promise<Record<string, UserBook>> {
  const parsed = Stored.safeParse((await area.get(ACCOUNT_BOOK_KEY))[ACCOUNT_BOOK_KEY])
  return parsed.success ? parsed.data.users : {}
}

async function oldNamesOf(area: StorageAreaLike, key: string): Promise<Record<string, string> | undefined> {
  const parsed = OldNames.safeParse((await area.get(ACCOUNT_NAMES_KEY))[ACCOUNT_NAMES_KEY])
  return parsed.success && Object.hasOwn(parsed.data.users, key) ? parsed.data.users[key] : undefined
}

/** Drop the user's entry of the older per-address names record once carried over. */
async function dropOldNames(area: StorageAreaLike, key: string): Promise<void> {
  const parsed = OldNames.safeParse((await area.get(ACCOUNT_NAMES_KEY))[ACCOUNT_NAMES_KEY])
  if (!parsed.success || !Object.hasOwn(parsed.data.users, key)) return
  const { [key]: _mine, ...rest } = parsed.data.users
  if (Object.keys(rest).length === 0) await area.remove(ACCOUNT_NAMES_KEY)
  else await area.set({ [ACCOUNT_NAMES_KEY]: { v: 1, users: rest } })
}

async function listKeys(client: SigilClient, organizationId: string): Promise<KeyView[]> {
  const { privateKeys } = await client.listPrivateKeys({ organizationId })
  return privateKeys.map((k) => ({ privateKeyId: k.privateKeyId, privateKeyName: k.privateKeyName, addresses: k.addresses }))
}

/** The session user's book: every account group in display order, named, and the view-only addresses. */
export async function accountBook(client: SigilClient, session: ActiveSession, local: StorageAreaLike): Promise<AccountBook> {
  const [{ wallets }, keys] = await Promise.all([listAccounts(client, session), listKeys(client, session.record.organizationId)])
  return bookFrom(wallets, keys, session, local)
}

/** {@link accountBook} from wallets and keys already listed. */
export function bookFrom(
  wallets: readonly WalletView[],
  keys: readonly KeyView[],
  session: ActiveSession,
  local: StorageAreaLike,
): Promise<AccountBook> {
  const { drafts, other } = groupAccounts(wallets, keys)
  const key = userKey(session)
  return serialized(local, async () => {
    const users = await loadAll(local)
    const book = Object.hasOwn(users, key) ? (users[key] ?? emptyBook()) : emptyBook()
    const old = book.namesMigrated ? undefined : await oldNamesOf(local, key)
    const named = nameGroups(drafts, book, old)
    if (named.book !== book) {
      await local.set({ [ACCOUNT_BOOK_KEY]: { v: ACCOUNT_BOOK_VERSION, users: { ...users, [key]: named.book } } })
      if (!book.namesMigrated) await dropOldNames(local, key)
    }
    return { groups: named.groups, other }
  })
}

/** Flatten groups to one row per address. */
export function flatten(groups: readonly AccountGroup[]): NamedAccount[] {
  return groups.flatMap((g) =>
    g.addresses.map((a) => ({
      address: a.address,
      addressFormat: a.addressFormat,
      walletId: g.walletId,
      walletName: g.walletName,
      group: g.group,
      name: g.name,
      hidden: g.hidden,
      kind: g.kind,
    })),
  )
}

/** Every account of the session's organization, in display order, named. */
export async function namedAccounts(client: SigilClient, session: ActiveSession, local: StorageAreaLike): Promise<NamedAccount[]> {
  return flatten((await accountBook(client, session, local)).groups)
}

/** address → name, for labels (addresses compared case-insensitively for EVM: 0x keys are stored lowercased too). */
export function accountNameMap(accounts: NamedAccount[]): Map<string, string> {
  const map = new Map<string, string>()
  for (const a of accounts) {
    map.set(a.address, a.name)
    if (a.address.startsWith('0x')) map.set(a.address.toLowerCase(), a.name)
  }
  return map
}

/** The name of `address` in `map`, EVM addresses compared case-insensitively. */
export function nameOf(map: ReadonlyMap<string, string>, address: string): string | undefined {
  return map.get(address) ?? (address.startsWith('0x') ? map.get(address.toLowerCase()) : undefined)
}

async function updateEntry(
  local: StorageAreaLike,
  session: ActiveSession,
  group: string,
  change: (e: z.infer<typeof Entry>) => z.infer<typeof Entry>,
): Promise<void> {
  const key = userKey(session)
  await serialized(local, async () => {
    const users = await loadAll(local)
    const book = Object.hasOwn(users, key) ? (users[key] ?? emptyBook()) : emptyBook()
    const entry = book.groups[group]
    if (!entry) throw new ExtensionError('INVALID_ARGUMENT', 'group: no such account; reopen the accounts list.', 'group')
    const updated = { ...book, groups: { ...book.groups, [group]: change(entry) } }
    await local.set({ [ACCOUNT_BOOK_KEY]: { v: ACCOUNT_BOOK_VERSION, users: { ...users, [key]: updated } } })
  })
}

/** Name an account group; an empty name goes back to the default ("Account N"). */
export async function renameGroup(
  local: StorageAreaLike,
  session: ActiveSession,
  p: { group: string; name: string },
): Promise<{ group: string; name: string }> {
  const name = p.name.trim()
  if (name.length > ACCOUNT_NAME_MAX)
    throw new ExtensionError('INVALID_ARGUMENT', `name: must be at most ${ACCOUNT_NAME_MAX} characters.`, 'name')
  await updateEntry(local, session, p.group, ({ name: _old, ...rest }) => (name === '' ? rest : { ...rest, name }))
  return { group: p.group, name }
}

/** Hide an account group (left out of the list unless shown, never offered to sites) or show it again. */
export async function setGroupHidden(
  local: StorageAreaLike,
  session: ActiveSession,
  p: { group: string; hidden: boolean },
): Promise<{ group: string; hidden: boolean }> {
  await updateEntry(local, session, p.group, ({ hidden: _old, ...rest }) => (p.hidden ? { ...rest, hidden: true } : rest))
  return { group: p.group, hidden: p.hidden }
}
