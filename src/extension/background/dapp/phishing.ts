/**
 * Phishing protection for dApp requests (issue 36): MetaMask's published phishing list
 * (`eth-phishing-detect`, bundled) through the package's own detector — blocklist, allowlist and
 * its fuzzy match against common phishing targets — plus lookalikes of the sites the user has
 * connected before (a small edit distance or the same "skeleton" of confusable characters, but
 * not the same host). Internationalized hosts (`xn--` labels) are read as the Unicode they show
 * and folded to the Latin letters they imitate (Cyrillic "а", Greek "ο", accents dropped): one
 * that then reads as a connected site, or as a site on the package's allowlist, is a lookalike.
 * A flagged origin gets a full-page warning in the approval window before
 * any of its requests (approval/PhishingWarning.tsx).
 *
 * Updatable: when the settings name a list URL, the list is fetched at most once a day, parsed
 * with zod (the package's shape), stored in `storage.local` and used instead of the bundled one
 * when its `version` is newer. A failed fetch keeps the list in use.
 */
import { toUnicode } from 'punycode.js'
import { z } from 'zod'
import PhishingDetector from 'eth-phishing-detect/src/detector.js'
import bundledList from 'eth-phishing-detect/src/config.json'
import type { StorageAreaLike } from '../storage/storageArea'

/** Why an origin is flagged: on the list, close to a common phishing target, or close to a site the user connected. */
export type PhishingReason = 'blocklist' | 'fuzzy' | 'lookalike'

/** The check's verdict for one hostname; `match` names the site it imitates (fuzzy, lookalike). */
export type PhishingVerdict = { listed: false } | { listed: true; reason: PhishingReason; match?: string }

const Domain = z.string().trim().toLowerCase().min(1).max(253)

/** A phishing list in the package's shape (src/config.json of eth-phishing-detect). */
export const PhishingListSchema = z.object({
  version: z.number().int().nonnegative(),
  tolerance: z.number().int().min(0).max(10).optional(),
  fuzzylist: z.array(Domain).max(10_000),
  whitelist: z.array(Domain).max(200_000),
  blacklist: z.array(Domain).max(1_000_000),
})
export type PhishingList = z.output<typeof PhishingListSchema>

/** The list bundled with this build. */
export const BUNDLED_LIST: PhishingList = bundledList as PhishingList

/** Storage key of the fetched list and when it was fetched. */
export const PHISHING_LIST_KEY = 'sigil.phishingList'
/** A configured list URL is fetched at most this often. */
export const PHISHING_REFRESH_MS = 24 * 3600_000
/** A list fetch that takes longer is abandoned (the request goes on with the list in use). */
export const PHISHING_FETCH_TIMEOUT_MS = 5_000

const Stored = z.object({ v: z.literal(1), fetchedAt: z.number(), url: z.string(), list: PhishingListSchema.nullable() })
type StoredList = z.output<typeof Stored>

/** Edit distance (Levenshtein) of two short strings. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost))
    }
    prev = row
  }
  return prev[b.length] ?? 0
}

/** Characters a reader takes for others, folded to one form ("paypa1" and "paypal" read alike). */
const CONFUSABLES: [RegExp, string][] = [
  [/rn/g, 'm'],
  [/vv/g, 'w'],
  [/cl/g, 'd'],
  [/[0]/g, 'o'],
  [/[1il|]/g, 'l'],
  [/[5]/g, 's'],
  [/-/g, ''],
]

function skeleton(host: string): string {
  return CONFUSABLES.reduce((s, [re, to]) => s.replace(re, to), host)
}

/**
 * Cyrillic, Greek and other letters that render like Latin ones in common fonts (a subset of
 * Unicode's confusables, those seen in domain spoofs), lower case.
 */
const HOMOGLYPHS: Record<string, string> = {
  а: 'a',
  в: 'b',
  с: 'c',
  ԁ: 'd',
  е: 'e',
  һ: 'h',
  і: 'i',
  ј: 'j',
  к: 'k',
  ӏ: 'l',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  ԛ: 'q',
  ѕ: 's',
  т: 't',
  у: 'y',
  х: 'x',
  ԝ: 'w',
  ь: 'b',
  ү: 'y',
  ɡ: 'g',
  ı: 'i',
  ȷ: 'j',
  ɑ: 'a',
  ο: 'o',
  α: 'a',
  ν: 'v',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  ι: 'i',
  κ: 'k',
  χ: 'x',
  ε: 'e',
  ω: 'w',
  β: 'b',
  γ: 'y',
  η: 'n',
  μ: 'u',
  ɩ: 'i',
  ꮃ: 'w',
  ⅼ: 'l',
}

/**
 * The Latin host an internationalized one imitates: its `xn--` labels decoded, accents dropped,
 * homoglyphs replaced; the host itself when it has no `xn--` label or cannot be decoded.
 */
export function foldIdn(host: string): string {
  if (!host.split('.').some((label) => label.startsWith('xn--'))) return host
  let unicode: string
  try {
    unicode = toUnicode(host)
  } catch {
    return host
  }
  return [...unicode.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()].map((c) => HOMOGLYPHS[c] ?? c).join('')
}

function bare(host: string): string {
  return host
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^www\./, '')
}

function isIpOrLocal(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[') || host === 'localhost' || host.endsWith('.localhost')
}

/** Same site: equal, or one a subdomain of the other. */
function sameSite(a: string, b: string): boolean {
  return a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`)
}

/** The connected site `host` imitates, if any: close in spelling or in confusable characters, but not the same site. */
export function lookalikeOf(hostname: string, connected: readonly string[]): string | undefined {
  const host = bare(hostname)
  if (isIpOrLocal(host)) return undefined
  const folded = foldIdn(host)
  for (const site of connected) {
    const other = bare(site)
    if (isIpOrLocal(other) || sameSite(host, other)) continue
    const limit = Math.min(host.length, other.length) >= 8 ? 2 : 1
    if (editDistance(host, other) <= limit || skeleton(host) === skeleton(other)) return other
    if (folded !== host && (editDistance(folded, other) <= limit || skeleton(folded) === skeleton(other))) return other
  }
  return undefined
}

const detectors = new WeakMap<PhishingList, PhishingDetector>()

function detectorFor(list: PhishingList): PhishingDetector {
  let d = detectors.get(list)
  if (!d) detectors.set(list, (d = new PhishingDetector(list)))
  return d
}

/** The hostname of an origin, lower-cased; undefined when it is not a URL. */
export function hostnameOf(origin: string): string | undefined {
  try {
    return new URL(origin).hostname.toLowerCase() || undefined
  } catch {
    return undefined
  }
}

/**
 * Check `hostname` against `list` (the allowlist wins over everything, as in the package) and
 * against the hosts of the sites the user connected (`connected`, hostnames).
 */
export function checkHostname(hostname: string, list: PhishingList, connected: readonly string[]): PhishingVerdict {
  const host = bare(hostname)
  const found = detectorFor(list).check(host)
  if (found.type === 'whitelist' || found.type === 'allowlist') return { listed: false }
  if (found.result && (found.type === 'blacklist' || found.type === 'blocklist')) return { listed: true, reason: 'blocklist' }
  if (found.result && found.type === 'fuzzy')
    return found.match ? { listed: true, reason: 'fuzzy', match: found.match } : { listed: true, reason: 'fuzzy' }
  // An internationalized host that reads as a site the list trusts (or blocks) imitates it.
  const folded = foldIdn(host)
  if (folded !== host) {
    const read = detectorFor(list).check(folded)
    if (read.type === 'whitelist' || read.type === 'allowlist' || read.result) return { listed: true, reason: 'lookalike', match: folded }
  }
  const like = lookalikeOf(host, connected)
  return like ? { listed: true, reason: 'lookalike', match: like } : { listed: false }
}

/** The newer of the bundled list and the stored one (by `version`). */
export function listInUse(stored: PhishingList | null | undefined, bundled: PhishingList = BUNDLED_LIST): PhishingList {
  return stored && stored.version > bundled.version ? stored : bundled
}

async function readStored(area: StorageAreaLike): Promise<StoredList | undefined> {
  const parsed = Stored.safeParse((await area.get(PHISHING_LIST_KEY))[PHISHING_LIST_KEY])
  return parsed.success ? parsed.data : undefined
}

/** What the checker reads: where the list lives, the configured URL, the connected sites, a clock and fetch. */
export type PhishingDeps = {
  local: StorageAreaLike
  /** The "phishing list URL" setting; empty: the bundled list only. */
  listUrl(): Promise<string>
  /** Origins of the sites the user connected (Ethereum and Solana). */
  connectedOrigins(): Promise<string[]>
  fetch?: typeof globalThis.fetch
  now?: () => number
  bundled?: PhishingList
}

/**
 * Fetch the configured list when the stored one is older than a day (or from another URL); the
 * list fetched replaces the stored one only when it parses. Returns the list to use.
 */
export async function refreshList(deps: PhishingDeps): Promise<PhishingList> {
  const bundled = deps.bundled ?? BUNDLED_LIST
  const now = (deps.now ?? Date.now)()
  const url = (await deps.listUrl()).trim()
  const stored = await readStored(deps.local)
  const current = stored && stored.url === url ? stored.list : null
  if (url === '' || (stored && stored.url === url && now - stored.fetchedAt < PHISHING_REFRESH_MS)) return listInUse(current, bundled)
  let list = current
  try {
    const res = await (deps.fetch ?? globalThis.fetch)(url, {
      credentials: 'omit',
      cache: 'no-store',
      signal: AbortSignal.timeout(PHISHING_FETCH_TIMEOUT_MS),
    })
    if (res.ok) {
      const parsed = PhishingListSchema.safeParse(await res.json())
      // Only a list that parses and is newer than the one kept replaces it.
      if (parsed.success && (!list || parsed.data.version > list.version)) list = parsed.data
    }
  } catch {
    // Unreachable: keep the list in use; tried again after a day.
  }
  await deps.local.set({ [PHISHING_LIST_KEY]: { v: 1, fetchedAt: now, url, list } satisfies StoredList })
  return listInUse(list, bundled)
}

/** A checker for origins: the verdict for a request's origin (the list refreshed when due). */
export function createPhishingCheck(deps: PhishingDeps): (origin: string) => Promise<PhishingVerdict> {
  return async (origin) => {
    const host = hostnameOf(origin)
    if (!host) return { listed: false }
    const [list, connected] = await Promise.all([
      refreshList(deps).catch(() => deps.bundled ?? BUNDLED_LIST),
      deps.connectedOrigins().catch(() => []),
    ])
    const hosts = connected.map(hostnameOf).filter((h): h is string => h !== undefined)
    return checkHostname(host, list, hosts)
  }
}
