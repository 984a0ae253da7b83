/**
 * The one JSON-RPC 2.0 client for chain nodes (the service's networks, the extension's, the dev
 * chains'): one call or a batch over HTTP POST, with a timeout. It throws two typed errors and
 * leaves their wording to the caller, who knows which network it asked and who reads the text:
 * {@link JsonRpcError} when the node answered with a JSON-RPC error, {@link JsonRpcUnreachable}
 * when it did not answer JSON-RPC at all (down, slow, HTTP garbage, no result).
 */

/** How long one request may take unless the caller says otherwise. */
export const JSON_RPC_TIMEOUT_MS = 10_000

/** The node answered the call with a JSON-RPC error: its own code, message and data, as given. */
export class JsonRpcError extends Error {
  override name = 'JsonRpcError'
  constructor(
    readonly method: string,
    /** The node's `error.code` when it is an integer. */
    readonly code: number | undefined,
    /** The node's `error.message` when it is a string. */
    readonly rpcMessage: string | undefined,
    readonly data: unknown,
  ) {
    super(`${method} refused: ${rpcMessage ?? 'JSON-RPC error'}`)
  }
}

/**
 * Why a node gave no JSON-RPC answer: `timeout` (none within the time), `unreachable` (the
 * request failed or the body is no JSON), `no-answer` (JSON that is no JSON-RPC reply object),
 * `no-result` (a reply with neither result nor error).
 */
export type JsonRpcFailure = 'timeout' | 'unreachable' | 'no-answer' | 'no-result'

/** The node could not be reached or did not answer JSON-RPC. */
export class JsonRpcUnreachable extends Error {
  override name = 'JsonRpcUnreachable'
  constructor(
    /** The method asked (a batch: its distinct methods, comma separated). */
    readonly method: string,
    readonly reason: JsonRpcFailure,
    readonly timeoutMs: number,
  ) {
    super(`${method}: ${reason}`)
  }
}

export type JsonRpcOptions = {
  /** Default {@link JSON_RPC_TIMEOUT_MS}. */
  timeoutMs?: number
  /** Aborts the request early (beside the timeout). */
  signal?: AbortSignal
  /** The `fetch` to use (default the global one). */
  fetch?: typeof fetch
  /** The request id (default 1; a batch numbers its calls from 0). */
  id?: number
  /**
   * A URL the user or a page chose: send no cookies and follow no redirect (to a URL nobody
   * approved).
   */
  untrusted?: boolean
}

export type JsonRpcCall = { method: string; params: readonly unknown[] }
/** One call's outcome in a batch: its result, or why it has none. */
export type JsonRpcOutcome = { ok: true; result: unknown } | { ok: false; error: JsonRpcError | JsonRpcUnreachable }

type Reply = { id?: unknown; result?: unknown; error?: unknown }

/** POSTs one JSON-RPC body and parses the answer; a failed request or a body that is no JSON is a {@link JsonRpcUnreachable}. */
async function post(url: string, body: unknown, what: string, o: JsonRpcOptions): Promise<unknown> {
  const timeoutMs = o.timeoutMs ?? JSON_RPC_TIMEOUT_MS
  const timeout = AbortSignal.timeout(timeoutMs)
  try {
    const res = await (o.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      ...(o.untrusted ? { credentials: 'omit' as const, redirect: 'error' as const } : {}),
      signal: o.signal ? AbortSignal.any([o.signal, timeout]) : timeout,
    })
    return await res.json()
  } catch (e) {
    const timedOut = e instanceof Error && e.name === 'TimeoutError'
    throw new JsonRpcUnreachable(what, timedOut ? 'timeout' : 'unreachable', timeoutMs)
  }
}

/** The result of one reply member, or the typed error for a refusal or a reply without a result. */
function resultOf(method: string, reply: unknown, timeoutMs: number): unknown {
  if (typeof reply !== 'object' || reply === null) throw new JsonRpcUnreachable(method, 'no-answer', timeoutMs)
  const { error } = reply as Reply
  if (error !== undefined && error !== null) {
    const e = (typeof error === 'object' ? error : {}) as { code?: unknown; message?: unknown; data?: unknown }
    throw new JsonRpcError(
      method,
      typeof e.code === 'number' && Number.isInteger(e.code) ? e.code : undefined,
      typeof e.message === 'string' ? e.message : undefined,
      e.data,
    )
  }
  if (!('result' in reply)) throw new JsonRpcUnreachable(method, 'no-result', timeoutMs)
  return (reply as Reply).result
}

/** Calls `method` on the node at `url` and returns its `result`. */
export async function jsonRpcRequest<T>(url: string, method: string, params: readonly unknown[], o: JsonRpcOptions = {}): Promise<T> {
  const reply = await post(url, { jsonrpc: '2.0', id: o.id ?? 1, method, params }, method, o)
  return resultOf(method, reply, o.timeoutMs ?? JSON_RPC_TIMEOUT_MS) as T
}

/**
 * Calls several methods in one JSON-RPC batch request; each call has its own outcome (one
 * refusal does not fail the others). A node that is down or slow throws, as
 * {@link jsonRpcRequest} does; a node that does not take batches (answers anything but an array)
 * is asked again with the calls in parallel.
 */
export async function jsonRpcBatchRequest(url: string, calls: readonly JsonRpcCall[], o: JsonRpcOptions = {}): Promise<JsonRpcOutcome[]> {
  if (calls.length === 0) return []
  const timeoutMs = o.timeoutMs ?? JSON_RPC_TIMEOUT_MS
  const what = [...new Set(calls.map((c) => c.method))].join(', ')
  const body = await post(
    url,
    calls.map((c, id) => ({ jsonrpc: '2.0', id, method: c.method, params: c.params })),
    what,
    o,
  )
  const outcome = (run: () => unknown): JsonRpcOutcome => {
    try {
      return { ok: true, result: run() }
    } catch (e) {
      if (e instanceof JsonRpcError || e instanceof JsonRpcUnreachable) return { ok: false, error: e }
      throw e
    }
  }
  if (!Array.isArray(body)) {
    const settled = await Promise.allSettled(calls.map((c) => jsonRpcRequest(url, c.method, c.params, o)))
    return settled.map((s) =>
      outcome(() => {
        if (s.status === 'rejected') throw s.reason
        return s.value
      }),
    )
  }
  const byId = new Map<unknown, Reply>()
  for (const reply of body as unknown[]) if (reply && typeof reply === 'object') byId.set((reply as Reply).id, reply as Reply)
  return calls.map((c, id) => outcome(() => resultOf(c.method, byId.get(id), timeoutMs)))
}
