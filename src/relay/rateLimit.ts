/** A fixed-window counter per key (the relay's rate limits). Memory is bounded by pruning. */
export type RateLimit = { max: number; windowMs: number }

export function createRateLimiter(limit: RateLimit, now: () => number) {
  const windows = new Map<string, { start: number; count: number }>()
  return {
    /** Counts one hit for `key`; false when the key is over its limit in this window. */
    hit(key: string): boolean {
      const t = now()
      if (windows.size > 10_000) {
        for (const [k, w] of windows) if (t - w.start >= limit.windowMs) windows.delete(k)
      }
      const w = windows.get(key)
      if (!w || t - w.start >= limit.windowMs) {
        windows.set(key, { start: t, count: 1 })
        return true
      }
      w.count += 1
      return w.count <= limit.max
    },
  }
}
