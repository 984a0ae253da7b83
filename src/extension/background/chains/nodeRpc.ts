/**
 * Read-only JSON-RPC to a network's node (the `rpcUrl` the pinned service signed), from the
 * background only: fee estimates and the facts a Send needs that the service does not offer
 * (eth_estimateGas, fees, getFeeForMessage). A node that is down or slow is NODE_UNAVAILABLE;
 * a node that refuses the call is an {@link RpcRefused} carrying its message.
 */
import type { Core } from '../core'
import { ExtensionError } from '../failures'
import type { NetworkInfo } from './networks'

/** How long a node may take to answer. */
export const NODE_TIMEOUT_MS = 10_000

/** The node answered the call with a JSON-RPC error (shown to the popup as REQUEST_FAILED with the node's message). */
export class RpcRefused extends ExtensionError {
  override name = 'RpcRefused'
  constructor(
    readonly method: string,
    readonly rpcCode: number,
    readonly rpcMessage: string,
    networkName: string,
  ) {
    super('REQUEST_FAILED', `The ${networkName} node refused ${method}: ${rpcMessage}`)
  }
}

/** Call `method` on the network's node; returns its `result`. */
export async function nodeRpc<T>(core: Core, network: Pick<NetworkInfo, 'rpcUrl' | 'name'>, method: string, params: unknown[]): Promise<T> {
  const doFetch = core.deps.fetch ?? ((i: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(i, init))
  let body: { result?: T; error?: { code?: number; message?: string; data?: unknown } }
  try {
    const res = await doFetch(network.rpcUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      credentials: 'omit',
      redirect: 'error',
      signal: AbortSignal.timeout(NODE_TIMEOUT_MS),
    })
    body = (await res.json()) as typeof body
  } catch {
    throw new ExtensionError('NODE_UNAVAILABLE', `The ${network.name} node is not answering.`)
  }
  if (body === null || typeof body !== 'object') throw new ExtensionError('NODE_UNAVAILABLE', `The ${network.name} node sent no answer.`)
  if (body.error) throw new RpcRefused(method, body.error.code ?? 0, String(body.error.message ?? 'refused'), network.name)
  if (!('result' in body)) throw new ExtensionError('NODE_UNAVAILABLE', `The ${network.name} node sent no result for ${method}.`)
  return body.result as T
}

/** A `0x…` quantity from a node, or NODE_UNAVAILABLE. */
export function quantity(value: unknown, what: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) {
    throw new ExtensionError('NODE_UNAVAILABLE', `The node answered ${what} with no number.`)
  }
  return BigInt(value)
}
