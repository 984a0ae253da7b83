/**
 * Per-origin back-off after rejected approvals ("approval flooding": a page re-prompted
 * 107–257 ms after each close). After an origin's n-th rejection in a row (the user pressed
 * Reject, closed the window, or let it time out) its new requests are answered 4001 at once,
 * without a window, for {@link backoffDelayMs}(n) = 1 s, 2 s, 4 s, 8 s, 16 s, then 30 s each time,
 * counted from that rejection. An approval resets the count; so does a service-worker restart
 * (the state is in memory only). Lock/logout rejections and auto-rejections do not count.
 */
import { RPC_ERROR, rpcError, type RpcErrorObject } from '../../protocol/rpcErrors'

/** The first back-off interval. */
export const BACKOFF_BASE_MS = 1000
/** The longest back-off interval. */
export const BACKOFF_MAX_MS = 30_000

/** The back-off after the `rejections`-th rejection in a row (0 for none). */
export function backoffDelayMs(rejections: number): number {
  if (rejections <= 0) return 0
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.min(rejections - 1, 30), BACKOFF_MAX_MS)
}

/** The 4001 an origin gets while it is backed off. */
export function backedOffError(remainingMs: number): RpcErrorObject {
  const s = Math.max(1, Math.ceil(remainingMs / 1000))
  return rpcError(RPC_ERROR.USER_REJECTED, `User rejected the request (this site asked again too soon; retry in ${s} s)`)
}

/** Back-off bookkeeping per origin. */
export type ApprovalBackoff = {
  /** Milliseconds until `origin` may prompt again (0 when it may now). */
  remainingMs(origin: string): number
  /** The user rejected (or closed, or ignored) a request of `origin`; returns the new interval. */
  rejected(origin: string): number
  /** The user approved a request of `origin`: back to no back-off. */
  approved(origin: string): void
}

/** Create the bookkeeping with an injectable clock. */
export function createApprovalBackoff(now: () => number = Date.now): ApprovalBackoff {
  const byOrigin = new Map<string, { rejections: number; until: number }>()
  return {
    remainingMs(origin) {
      const b = byOrigin.get(origin)
      return b ? Math.max(0, b.until - now()) : 0
    },
    rejected(origin) {
      const rejections = (byOrigin.get(origin)?.rejections ?? 0) + 1
      const delay = backoffDelayMs(rejections)
      byOrigin.set(origin, { rejections, until: now() + delay })
      return delay
    },
    approved(origin) {
      byOrigin.delete(origin)
    },
  }
}
