/**
 * Pending dApp approvals (DEVELOPERS.md "Wallet invariants", style.md habit 7): each request
 * gets a random id, is answered only through that id, and settles exactly once. A missing
 * answer is a rejection: window closed, timeout, lock/logout/expiry and chain switch all
 * reject. The registry lives in background memory only; a service-worker restart drops it
 * and the page's pending requests fail with 4900 in the content relay (documented, by design).
 */
import { RPC_ERROR, rpcError, type RpcErrorObject } from '../../protocol/rpcErrors'
import type { ApprovalView, PhishingFlag } from '../../protocol/approvalView'

/** How long an approval waits for the user before it is rejected. */
export const APPROVAL_TIMEOUT_MS = 5 * 60_000

/** The EIP-1193 error of a user rejection (also used for closed windows and timeouts). */
export const USER_REJECTED: RpcErrorObject = rpcError(RPC_ERROR.USER_REJECTED, 'User rejected the request')

/** 4001 for requests a chain switch cancels (the same message; not a rejection by the user for the back-off). */
export const SUPERSEDED: RpcErrorObject = rpcError(RPC_ERROR.USER_REJECTED, 'User rejected the request')

/**
 * How many of one origin's requests that may ask the user may be in flight at once (being prepared
 * or waiting; counted by dapp/services.ts from the router's admission); more are refused at once ({@link TOO_MANY_PENDING}).
 */
export const MAX_PENDING_PER_ORIGIN = 10

/** -32002: this origin already has {@link MAX_PENDING_PER_ORIGIN} requests in flight that may ask the user. */
export const TOO_MANY_PENDING: RpcErrorObject = {
  code: -32002,
  message: `Too many requests from this site are waiting for approval (${MAX_PENDING_PER_ORIGIN}); wait for the user to answer them`,
}

/** One request waiting for the user. */
export type PendingApproval = {
  readonly id: string
  /** The requesting web origin, taken from the browser's `sender`. */
  readonly origin: string
  readonly method: string
  readonly view: ApprovalView
  readonly createdAt: number
  readonly expiresAt: number
  /** The origin looks deceptive: approving needs the user to have passed the window's warning. */
  readonly phishing?: PhishingFlag
  windowId?: number
}

/** How an approval ended: approved, or the EIP-1193 error to answer with. */
export type ApprovalOutcome = { approved: true; accounts?: string[] } | { approved: false; error: RpcErrorObject }

/** The pending-approval registry. `id` is required everywhere (style.md anti-pattern 3). */
export type ApprovalRegistry = {
  /** Register a request; `outcome` settles exactly once. */
  open(input: { origin: string; method: string; view: ApprovalView; phishing?: PhishingFlag }): {
    id: string
    outcome: Promise<ApprovalOutcome>
  }
  /** The pending request with this id, or undefined when unknown or already settled. */
  get(id: string): PendingApproval | undefined
  /**
   * The user's answer for `id`, with the accounts chosen in a connect window (checked by the
   * caller against the request's view); false (and no effect) when `id` is unknown or settled.
   */
  resolve(id: string, approved: boolean, accounts?: string[]): boolean
  /** Reject one request with `error`; false when unknown or settled. */
  reject(id: string, error: RpcErrorObject): boolean
  /** Remember the window showing `id` (closing it rejects); false when `id` is no longer pending. */
  attachWindow(id: string, windowId: number): boolean
  /** A browser window closed: reject the request it showed, if any. */
  windowClosed(windowId: number): void
  /** Reject every pending request with `error`; returns how many were rejected. */
  rejectAll(error: RpcErrorObject): number
  /** Reject every pending request of `origin` with `error` (its chain changed); returns how many. */
  rejectFor(origin: string, error: RpcErrorObject): number
  /** True when `origin` already has a request waiting. */
  hasPendingFor(origin: string): boolean
  /** Number of pending requests. */
  size(): number
}

/** Injected clock, timers and id source (tests control them). */
export type ApprovalRegistryOptions = {
  timeoutMs?: number
  now?: () => number
  randomId?: () => string
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (handle: unknown) => void
}

type Entry = { pending: PendingApproval; settle: (o: ApprovalOutcome) => void; timer: unknown }

/** Create an empty {@link ApprovalRegistry}. */
export function createApprovalRegistry(opts: ApprovalRegistryOptions = {}): ApprovalRegistry {
  const timeoutMs = opts.timeoutMs ?? APPROVAL_TIMEOUT_MS
  const now = opts.now ?? Date.now
  const randomId = opts.randomId ?? (() => crypto.randomUUID())
  const setTimer = opts.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms))
  const clearTimer = opts.clearTimer ?? ((h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>))
  const entries = new Map<string, Entry>()

  function settle(id: string, outcome: ApprovalOutcome): boolean {
    const entry = entries.get(id)
    if (!entry) return false
    entries.delete(id)
    clearTimer(entry.timer)
    entry.settle(outcome)
    return true
  }

  const registry: ApprovalRegistry = {
    open({ origin, method, view, phishing }) {
      let id = randomId()
      while (entries.has(id)) id = randomId()
      const createdAt = now()
      const pending: PendingApproval = {
        id,
        origin,
        method,
        view,
        createdAt,
        expiresAt: createdAt + timeoutMs,
        ...(phishing ? { phishing } : {}),
      }
      let settleFn!: (o: ApprovalOutcome) => void
      const outcome = new Promise<ApprovalOutcome>((resolve) => (settleFn = resolve))
      const timer = setTimer(() => settle(id, { approved: false, error: USER_REJECTED }), timeoutMs)
      entries.set(id, { pending, settle: settleFn, timer })
      return { id, outcome }
    },
    get: (id) => entries.get(id)?.pending,
    resolve: (id, approved, accounts) =>
      settle(
        id,
        approved !== true
          ? { approved: false, error: USER_REJECTED }
          : accounts === undefined
            ? { approved: true }
            : { approved: true, accounts },
      ),
    reject: (id, error) => settle(id, { approved: false, error }),
    attachWindow(id, windowId) {
      const entry = entries.get(id)
      if (!entry) return false
      entry.pending.windowId = windowId
      return true
    },
    windowClosed(windowId) {
      for (const [id, entry] of [...entries]) {
        if (entry.pending.windowId === windowId) settle(id, { approved: false, error: USER_REJECTED })
      }
    },
    rejectAll(error) {
      const ids = [...entries.keys()]
      for (const id of ids) settle(id, { approved: false, error })
      return ids.length
    },
    rejectFor(origin, error) {
      const ids = [...entries].filter(([, e]) => e.pending.origin === origin).map(([id]) => id)
      for (const id of ids) settle(id, { approved: false, error })
      return ids.length
    },
    hasPendingFor: (origin) => [...entries.values()].some((e) => e.pending.origin === origin),
    size: () => entries.size,
  }
  return registry
}
