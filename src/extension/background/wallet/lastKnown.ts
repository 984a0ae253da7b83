/**
 * Error states with a way out: the last account book and balances read, kept per user (and per
 * network for balances) in `storage.local`, shown marked stale when a read fails because the
 * service or the network's node is not answering, with advice that matches the cause. Reads are
 * bounded ({@link READ_TIMEOUT_MS}) so a hung service reaches the Retry state instead of a spinner.
 * The record holds public data only (addresses, names, balances), nothing secret.
 */
import { z } from 'zod'
import { SigilError, SigilRequestError } from '../../../api/errors'
import { listNetworks } from '../chains/networks'
import type { Core } from '../core'
import { ExtensionError } from '../failures'
import type { StorageAreaLike } from '../storage/storageArea'
import { type AccountBook, type AccountGroup, accountBook, type OtherAddress } from './accountBook'
import { type AccountBalances, getBalances } from './balances'

/** Storage key of the last-known record. */
export const LAST_KNOWN_KEY = 'sigil.lastKnown'
const LAST_KNOWN_VERSION = 1
/** Most networks whose balances are kept per user (the least recently read go first). */
export const LAST_KNOWN_NETWORKS = 16
/**
 * Longest a read through the service may take before the wallet says the service is not
 * answering; above the service's own 10 s bound on a node call, so a slow node is named as such.
 */
export const READ_TIMEOUT_MS = 15_000

/** What the popup shows beside last-known data: when it was read, and why the fresh read failed. */
export type Stale = { at: number; advice: string }

const Address = z.object({
  walletAccountId: z.string().max(200).optional(),
  address: z.string().max(200),
  addressFormat: z.enum(['ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_SOLANA']),
  path: z.string().max(200).optional(),
})
const Group = z.object({
  group: z.string().max(300),
  walletId: z.string().max(200),
  walletName: z.string().max(200),
  kind: z.enum(['derived', 'imported']),
  index: z.number().int().nonnegative().optional(),
  name: z.string().max(200),
  named: z.boolean(),
  hidden: z.boolean(),
  addresses: z.array(Address).max(100),
})
const Other = z.object({
  walletId: z.string().max(200),
  walletName: z.string().max(200),
  address: z.string().max(200),
  addressFormat: z.string().max(100),
  path: z.string().max(200).optional(),
})
const Balance = z.object({
  caip19: z.string().max(300),
  symbol: z.string().max(64),
  name: z.string().max(200),
  decimals: z.number().int().min(0).max(255),
  balance: z.string().regex(/^\d{1,78}$/),
  token: z.string().max(200).optional(),
  watched: z.literal(true).optional(),
  unavailable: z.literal(true).optional(),
})
const Account = z.object({
  address: z.string().max(200),
  walletName: z.string().max(200),
  name: z.string().max(200),
  hidden: z.boolean(),
  balances: z.array(Balance).max(200),
})
const UserRecord = z.object({
  book: z.object({ at: z.number(), groups: z.array(Group).max(500), other: z.array(Other).max(500) }).optional(),
  balances: z.record(z.string().max(100), z.object({ at: z.number(), accounts: z.array(Account).max(500) })),
})
type UserRecord = z.infer<typeof UserRecord>
const Stored = z.object({ v: z.literal(LAST_KNOWN_VERSION), users: z.record(z.string(), UserRecord) })

const userKeyOf = (s: { record: { organizationId: string; userId: string } }) => `${s.record.organizationId}/${s.record.userId}`

async function loadUsers(local: StorageAreaLike): Promise<Record<string, UserRecord>> {
  const parsed = Stored.safeParse((await local.get(LAST_KNOWN_KEY))[LAST_KNOWN_KEY])
  return parsed.success ? parsed.data.users : {}
}

async function update(local: StorageAreaLike, user: string, change: (r: UserRecord) => UserRecord): Promise<void> {
  const users = await loadUsers(local)
  const next = change(users[user] ?? { balances: {} })
  await local.set({ [LAST_KNOWN_KEY]: { v: LAST_KNOWN_VERSION, users: { ...users, [user]: next } } })
}

/** Rejects with a NETWORK SigilError naming the read when `p` takes longer than {@link READ_TIMEOUT_MS}. */
export async function bounded<T>(p: Promise<T>, timeoutMs = READ_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ReadTimeout(timeoutMs)), timeoutMs)
  })
  try {
    return await Promise.race([p, late])
  } finally {
    clearTimeout(timer)
  }
}

/** A read through the service that took longer than the bound. */
export class ReadTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`)
  }
}

/** Where the failed read went, for the advice. */
export type AdviceContext = { serviceUrl: string; network?: { name: string; rpcUrl: string } }

/**
 * Advice matching why a read failed, or undefined when the failure is not the service's or the
 * node's availability (a refused session, a bad request: those keep their own message). Says
 * "check Settings" only when the configured URL cannot be right (it does not parse); a browser
 * cannot tell an unknown host from a down one, so that is "not answering" too.
 */
export function adviceFor(err: unknown, ctx: AdviceContext): string | undefined {
  const service = ctx.serviceUrl.replace(/\/+$/, '')
  const nodeAdvice = () =>
    ctx.network ? `The ${ctx.network.name} node at ${ctx.network.rpcUrl} is not answering.` : 'The network’s node is not answering.'
  if (err instanceof ExtensionError && err.code === 'NODE_UNAVAILABLE') {
    return /refused/i.test(err.message) ? `${ctx.network?.name ?? 'The network'}’s node refused the read: ${err.message}` : nodeAdvice()
  }
  if (err instanceof ReadTimeout) return `Sigil service at ${service} did not answer within ${Math.round(err.timeoutMs / 1000)} s.`
  const isNetwork = (err instanceof SigilError && err.code === 'NETWORK') || (err instanceof ExtensionError && err.code === 'NETWORK')
  if (isNetwork) {
    if (!URL.canParse(ctx.serviceUrl) || !/^https?:$/.test(new URL(ctx.serviceUrl).protocol)) {
      return `The service URL “${ctx.serviceUrl}” is not a valid http(s) URL. Check it in Settings.`
    }
    return `Sigil service at ${service} is not answering.`
  }
  if (err instanceof SigilRequestError && err.status >= 500) {
    const said = err.message ? `: ${err.message}` : ''
    return `Sigil service at ${service} answered with an error (HTTP ${err.status}${err.status === 503 ? ', unavailable' : ''})${said}.`
  }
  return undefined
}

/** The session's account book; when the service is not answering, the last one read, marked stale. */
export async function accountBookOrLastKnown(core: Core): Promise<AccountBook & { stale?: Stale }> {
  const session = await core.requireSession()
  const user = userKeyOf(session)
  try {
    const book = await bounded(core.withSession((client, s) => accountBook(client, s, core.deps.local)))
    await update(core.deps.local, user, (r) => ({ ...r, book: { at: core.now(), groups: book.groups, other: book.other } }))
    return book
  } catch (err) {
    const advice = adviceFor(err, { serviceUrl: (await core.settings()).apiBaseUrl })
    if (advice === undefined) throw err
    const known = (await loadUsers(core.deps.local))[user]?.book
    if (!known) throw new ExtensionError('NETWORK', advice)
    // The schema checked the stored shape; optional fields read back as absent or set, as written.
    return { groups: known.groups as AccountGroup[], other: known.other as OtherAddress[], stale: { at: known.at, advice } }
  }
}

/** Balances on `caip2`; when the service or the node is not answering, the last ones read there, marked stale. */
export async function balancesOrLastKnown(
  core: Core,
  p: { caip2: string },
): Promise<{ caip2: string; accounts: AccountBalances[]; stale?: Stale }> {
  const session = await core.requireSession()
  const user = userKeyOf(session)
  try {
    const fresh = await bounded(core.withSession((client, s) => getBalances(core, client, s, p)))
    await update(core.deps.local, user, (r) => {
      const kept = Object.entries(r.balances)
        .filter(([caip2]) => caip2 !== fresh.caip2)
        .sort(([, a], [, b]) => b.at - a.at)
        .slice(0, LAST_KNOWN_NETWORKS - 1)
      return { ...r, balances: { ...Object.fromEntries(kept), [fresh.caip2]: { at: core.now(), accounts: fresh.accounts } } }
    })
    return fresh
  } catch (err) {
    const network = await listNetworks(core)
      .then((ns) => ns.find((n) => n.caip2 === p.caip2))
      .catch(() => undefined)
    const advice = adviceFor(err, { serviceUrl: (await core.settings()).apiBaseUrl, ...(network ? { network } : {}) })
    if (advice === undefined) throw err
    const known = (await loadUsers(core.deps.local))[user]?.balances[p.caip2]
    if (!known)
      throw new ExtensionError(err instanceof ExtensionError && err.code === 'NODE_UNAVAILABLE' ? 'NODE_UNAVAILABLE' : 'NETWORK', advice)
    return { caip2: p.caip2, accounts: known.accounts as AccountBalances[], stale: { at: known.at, advice } }
  }
}
