/**
 * USD values of balances (`display.usd` of get_wallet_address_balances, as the hosted service gives
 * them) from the operator's price source `SIGIL_PRICE_URL`: `GET <url>?assets=<caip19>,<caip19>…`
 * answering `{"prices": {"<caip19>": "<USD price of one whole unit>"}}` (decimal strings). None is
 * configured by default or in development, and then balances carry no USD value. A source that
 * is down, slow (2 s) or answers anything else gives no USD value for that read (logged) — never
 * a guessed or stale one older than {@link PRICE_TTL_MS}.
 */
import { z } from 'zod'
import type { AssetBalance } from '../../api/operations/get_wallet_address_balances.js'
import type { Logger } from '../logger.js'

/** How long a price read stays in use. */
export const PRICE_TTL_MS = 60_000
/** How long one read of the source may take. */
export const PRICE_TIMEOUT_MS = 2_000

const USD = /^(0|[1-9][0-9]{0,14})(\.[0-9]{1,18})?$/
const Answer = z.object({ prices: z.record(z.string().max(256), z.string().regex(USD)) })

const cache = new Map<string, { at: number; usd: string | null }>()
const CACHE_MAX = 10_000

/** The USD value of `balance` atomic units at `price` per whole unit, rounded down to cents ("2450.50"). */
export function usdValue(balance: bigint, decimals: number, price: string): string {
  const [whole = '0', fraction = ''] = price.split('.')
  const scaled = BigInt(whole + fraction)
  const cents = (balance * scaled * 100n) / 10n ** BigInt(decimals + fraction.length)
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`
}

/** USD prices of `assets` (caip19 → price) from `url`; the ones it cannot say are absent. */
export async function usdPrices(url: string, assets: readonly string[], log?: Logger, now = Date.now()): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  const missing: string[] = []
  for (const a of assets) {
    const hit = cache.get(`${url} ${a}`)
    if (hit && now - hit.at < PRICE_TTL_MS) {
      if (hit.usd !== null) out.set(a, hit.usd)
    } else missing.push(a)
  }
  if (missing.length === 0) return out
  try {
    const target = new URL(url)
    target.searchParams.set('assets', missing.join(','))
    const res = await fetch(target, { signal: AbortSignal.timeout(PRICE_TIMEOUT_MS), headers: { accept: 'application/json' } })
    if (!res.ok) throw new Error(`HTTP ${res.status}`)
    const parsed = Answer.safeParse(await res.json())
    if (!parsed.success) throw new Error('the answer is not {"prices": {"<caip19>": "<decimal>"}}')
    if (cache.size >= CACHE_MAX) cache.clear()
    for (const a of missing) {
      const usd = Object.hasOwn(parsed.data.prices, a) ? (parsed.data.prices[a] ?? null) : null
      cache.set(`${url} ${a}`, { at: now, usd })
      if (usd !== null) out.set(a, usd)
    }
  } catch (err) {
    log?.warn('price source unreadable', { reason: err instanceof Error ? err.message : String(err) })
  }
  return out
}

/** `balances` with `display.usd` where the price source knows the asset's price. */
export async function withUsd(url: string | undefined, balances: AssetBalance[], log?: Logger): Promise<AssetBalance[]> {
  if (url === undefined) return balances
  const ids = balances.flatMap((b) => (b.caip19 === undefined ? [] : [b.caip19]))
  const prices = await usdPrices(url, ids, log)
  return balances.map((b) => {
    const price = b.caip19 === undefined ? undefined : prices.get(b.caip19)
    if (price === undefined || b.balance === undefined || b.decimals === undefined || !/^\d{1,78}$/.test(b.balance)) return b
    return { ...b, display: { ...b.display, usd: usdValue(BigInt(b.balance), b.decimals, price) } }
  })
}

/** Forget every price read (tests). */
export function forgetPrices(): void {
  cache.clear()
}
