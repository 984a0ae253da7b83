/**
 * A small JSON-RPC 2.0 client for the chain nodes the service talks to. A node that does not
 * answer in time, answers garbage or refuses the call is a typed error naming the network,
 * never the RPC URL (it may carry a credential).
 */
import { SigilError } from '../../api/errors.js'
import type { Network } from '../../chains/networks.js'

export const RPC_TIMEOUT_MS = 10_000

/** The node answered with a JSON-RPC error. */
export class RpcRefusedError extends SigilError {
  override name = 'RpcRefusedError'
  constructor(
    network: Network,
    method: string,
    readonly rpcCode: number,
    readonly rpcMessage: string,
    readonly rpcData: unknown,
  ) {
    super('FAILED_PRECONDITION', `${network.name} (${network.caip2}) refused ${method}: ${rpcMessage}`)
  }
}

type RpcReply<T> = { id?: unknown; result?: T; error?: { code?: number; message?: string; data?: unknown } }

/** POSTs one JSON-RPC body; a node that is down or slow (or answers no JSON) is a SigilError naming the network. */
async function post(network: Network, body: unknown, what: string, timeoutMs: number): Promise<unknown> {
  try {
    const res = await fetch(network.rpcUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    })
    return await res.json()
  } catch (e) {
    const timedOut = e instanceof Error && e.name === 'TimeoutError'
    throw new SigilError(
      'FAILED_PRECONDITION',
      `${network.name} (${network.caip2}) ${timedOut ? `did not answer ${what} within ${timeoutMs} ms` : `is not reachable for ${what}`}`,
    )
  }
}

/** The result of one reply, or the typed error for a refusal or a reply without a result. */
function resultOf<T>(network: Network, method: string, body: RpcReply<T> | undefined): T {
  if (body && typeof body === 'object' && body.error) {
    throw new RpcRefusedError(network, method, Number(body.error.code ?? 0), String(body.error.message ?? 'error'), body.error.data)
  }
  if (!body || typeof body !== 'object' || !('result' in body)) {
    throw new SigilError('FAILED_PRECONDITION', `${network.name} (${network.caip2}) gave no result for ${method}`)
  }
  return body.result as T
}

/** Calls `method` on the network's node; throws a SigilError when the node is down, slow or refuses. */
export async function jsonRpc<T>(network: Network, method: string, params: unknown[], timeoutMs = RPC_TIMEOUT_MS): Promise<T> {
  const body = (await post(network, { jsonrpc: '2.0', id: 1, method, params }, method, timeoutMs)) as RpcReply<T>
  return resultOf(network, method, body)
}

export type RpcCall = { method: string; params: unknown[] }
/** One call's outcome in a batch: its result, or why it has none (a refusal, or no result). */
export type RpcOutcome = { ok: true; result: unknown } | { ok: false; error: SigilError }

/**
 * Calls several methods in one JSON-RPC batch request; each call has its own outcome (one
 * refusal does not fail the others). A node that is down or slow throws, as {@link jsonRpc}
 * does; a node that does not take batches (answers anything but an array) is asked again with
 * the calls in parallel.
 */
export async function jsonRpcBatch(network: Network, calls: readonly RpcCall[], timeoutMs = RPC_TIMEOUT_MS): Promise<RpcOutcome[]> {
  if (calls.length === 0) return []
  const what = [...new Set(calls.map((c) => c.method))].join(', ')
  const body = await post(
    network,
    calls.map((c, id) => ({ jsonrpc: '2.0', id, method: c.method, params: c.params })),
    what,
    timeoutMs,
  )
  const outcome = (call: RpcCall, reply: RpcReply<unknown> | undefined): RpcOutcome => {
    try {
      return { ok: true, result: resultOf(network, call.method, reply) }
    } catch (e) {
      return { ok: false, error: e as SigilError }
    }
  }
  if (!Array.isArray(body)) {
    const settled = await Promise.allSettled(calls.map((c) => jsonRpc(network, c.method, c.params, timeoutMs)))
    return settled.map((s) => {
      if (s.status === 'fulfilled') return { ok: true, result: s.value }
      if (s.reason instanceof SigilError) return { ok: false, error: s.reason }
      throw s.reason
    })
  }
  const byId = new Map<unknown, RpcReply<unknown>>()
  for (const reply of body as Array<RpcReply<unknown>>) if (reply && typeof reply === 'object') byId.set(reply.id, reply)
  return calls.map((c, id) => outcome(c, byId.get(id)))
}
