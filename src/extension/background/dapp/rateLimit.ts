/**
 * A per-origin token bucket for the dApp RPC passthrough: a page cannot turn
 * the wallet into a free, unthrottled proxy to the network's node.
 */

/** Bucket size (a burst) and refill per second. */
export const READ_BURST = 60
export const READ_PER_SECOND = 20

/** Take one token for a key; false when the key is over its limit. */
export type RateLimiter = { take(key: string, now: number): boolean }

/** A token bucket per key, `burst` tokens refilled at `perSecond`. */
export function createRateLimiter(burst = READ_BURST, perSecond = READ_PER_SECOND): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>()
  return {
    take(key, now) {
      const b = buckets.get(key) ?? { tokens: burst, at: now }
      b.tokens = Math.min(burst, b.tokens + (Math.max(0, now - b.at) / 1000) * perSecond)
      b.at = now
      buckets.set(key, b)
      if (buckets.size > 1000) for (const k of [...buckets.keys()].slice(0, 500)) if (k !== key) buckets.delete(k)
      if (b.tokens < 1) return false
      b.tokens -= 1
      return true
    },
  }
}
