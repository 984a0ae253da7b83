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

/** Calls `method` on the network's node; throws a SigilError when the node is down, slow or refuses. */
export async function jsonRpc<T>(network: Network, method: string, params: unknown[], timeoutMs = RPC_TIMEOUT_MS): Promise<T> {
  let body: { result?: T; error?: { code?: number; message?: string; data?: unknown } }
  try {
    const res = await fetch(network.rpcUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    })
    body = (await res.json()) as typeof body
  } catch (e) {
    const timedOut = e instanceof Error && e.name === 'TimeoutError'
    throw new SigilError(
      'FAILED_PRECONDITION',
      `${network.name} (${network.caip2}) ${timedOut ? `did not answer ${method} within ${timeoutMs} ms` : `is not reachable for ${method}`}`,
    )
  }
  if (body && typeof body === 'object' && body.error) {
    throw new RpcRefusedError(network, method, Number(body.error.code ?? 0), String(body.error.message ?? 'error'), body.error.data)
  }
  if (!body || typeof body !== 'object' || !('result' in body)) {
    throw new SigilError('FAILED_PRECONDITION', `${network.name} (${network.caip2}) gave no result for ${method}`)
  }
  return body.result as T
}
