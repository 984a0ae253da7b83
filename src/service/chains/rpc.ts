/**
 * The chain nodes the service talks to, through the one JSON-RPC client (src/chains/jsonRpc.ts),
 * with its failures in the service's error vocabulary: a node that does not answer in time,
 * answers garbage or refuses the call is a typed error naming the network, never the RPC URL (it
 * may carry a credential).
 */
import { SigilError } from '../../api/errors.js'
import {
  JSON_RPC_TIMEOUT_MS,
  type JsonRpcCall,
  JsonRpcError,
  JsonRpcUnreachable,
  jsonRpcBatchRequest,
  jsonRpcRequest,
} from '../../chains/jsonRpc.js'
import type { Network } from '../../chains/networks.js'

export const RPC_TIMEOUT_MS = JSON_RPC_TIMEOUT_MS

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

/** The client's error as the service's: a refusal keeps the node's code, message and data; anything else names the network. */
function serviceError(network: Network, e: unknown): unknown {
  const at = `${network.name} (${network.caip2})`
  if (e instanceof JsonRpcError) return new RpcRefusedError(network, e.method, e.code ?? 0, e.rpcMessage ?? 'error', e.data)
  if (!(e instanceof JsonRpcUnreachable)) return e
  if (e.reason === 'timeout') return new SigilError('FAILED_PRECONDITION', `${at} did not answer ${e.method} within ${e.timeoutMs} ms`)
  if (e.reason === 'unreachable') return new SigilError('FAILED_PRECONDITION', `${at} is not reachable for ${e.method}`)
  return new SigilError('FAILED_PRECONDITION', `${at} gave no result for ${e.method}`)
}

/** Calls `method` on the network's node; throws a SigilError when the node is down, slow or refuses. */
export async function jsonRpc<T>(network: Network, method: string, params: unknown[], timeoutMs = RPC_TIMEOUT_MS): Promise<T> {
  try {
    return await jsonRpcRequest<T>(network.rpcUrl, method, params, { timeoutMs })
  } catch (e) {
    throw serviceError(network, e)
  }
}

export type RpcCall = JsonRpcCall
/** One call's outcome in a batch: its result, or why it has none (a refusal, or no result). */
export type RpcOutcome = { ok: true; result: unknown } | { ok: false; error: SigilError }

/**
 * Calls several methods in one JSON-RPC batch request; each call has its own outcome (one
 * refusal does not fail the others). A node that is down or slow throws, as {@link jsonRpc}
 * does; a node that does not take batches is asked again with the calls in parallel.
 */
export async function jsonRpcBatch(network: Network, calls: readonly RpcCall[], timeoutMs = RPC_TIMEOUT_MS): Promise<RpcOutcome[]> {
  let outcomes: Awaited<ReturnType<typeof jsonRpcBatchRequest>>
  try {
    outcomes = await jsonRpcBatchRequest(network.rpcUrl, calls, { timeoutMs })
  } catch (e) {
    throw serviceError(network, e)
  }
  return outcomes.map((o) => (o.ok ? o : { ok: false, error: serviceError(network, o.error) as SigilError }))
}
