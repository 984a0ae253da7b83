/**
 * JSON-RPC to a network's node, from the background only, over the one JSON-RPC client
 * (src/chains/jsonRpc.ts, with `untrusted`: no cookies, no redirect to a URL nobody approved, as
 * an added RPC could point anywhere). Two wordings of its failures, by who reads them:
 * - dApp requests ({@link evmRpc}): a node's own error answer is an {@link EvmRpcError}; a node
 *   that cannot be reached, answers HTTP errors or garbage is an {@link EvmRpcUnreachable}.
 *   Neither's text is for a page: what a dApp gets back is a fixed message
 *   (dapp/evm/read.ts#mapNodeError, dapp/evm/addChain.ts).
 * - The popup ({@link nodeRpc}, the `rpcUrl` the pinned service signed): fee estimates and the
 *   facts a Send needs that the service does not offer (eth_estimateGas, fees,
 *   getFeeForMessage). A node that is down or slow is NODE_UNAVAILABLE; a node that refuses the
 *   call is an {@link RpcRefused} carrying its message.
 */
import { JsonRpcError, JsonRpcUnreachable, jsonRpcRequest } from '../../../chains/jsonRpc'
import type { Core } from '../core'
import { ExtensionError } from '../failures'
import type { NetworkInfo } from './networks'

/** How long one dApp-requested call may take. */
export const RPC_TIMEOUT_MS = 10_000

/** The node answered a dApp-requested call with a JSON-RPC error. */
export class EvmRpcError extends Error {
  override name = 'EvmRpcError'
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message)
  }
}

/** The node could not be reached or did not answer JSON-RPC. */
export class EvmRpcUnreachable extends Error {
  override name = 'EvmRpcUnreachable'
}

let nextId = 1

/** Call `method` on the node at `rpcUrl` for a dApp (with the global `fetch` when none is given). */
export async function evmRpc<T>(
  fetchFn: typeof fetch | undefined,
  rpcUrl: string,
  method: string,
  params: readonly unknown[],
  timeoutMs = RPC_TIMEOUT_MS,
): Promise<T> {
  try {
    return await jsonRpcRequest<T>(rpcUrl, method, params, {
      ...(fetchFn ? { fetch: fetchFn } : {}),
      timeoutMs,
      id: nextId++,
      untrusted: true,
    })
  } catch (e) {
    if (e instanceof JsonRpcError) throw new EvmRpcError(e.code ?? -32603, (e.rpcMessage ?? 'RPC error').slice(0, 300), e.data)
    if (e instanceof JsonRpcUnreachable) {
      if (e.reason === 'no-answer') throw new EvmRpcUnreachable(`the RPC node gave no JSON-RPC answer to ${method}`)
      if (e.reason === 'no-result') throw new EvmRpcUnreachable(`the RPC node gave no result for ${method}`)
      throw new EvmRpcUnreachable(`the RPC node did not answer ${method}`)
    }
    throw e
  }
}

/** How long a node may take to answer the popup. */
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

/** Call `method` on the network's node for the popup; returns its `result`. */
export async function nodeRpc<T>(core: Core, network: Pick<NetworkInfo, 'rpcUrl' | 'name'>, method: string, params: unknown[]): Promise<T> {
  try {
    return await jsonRpcRequest<T>(network.rpcUrl, method, params, {
      ...(core.deps.fetch ? { fetch: core.deps.fetch } : {}),
      timeoutMs: NODE_TIMEOUT_MS,
      untrusted: true,
    })
  } catch (e) {
    if (e instanceof JsonRpcError) throw new RpcRefused(method, e.code ?? 0, e.rpcMessage ?? 'refused', network.name)
    if (e instanceof JsonRpcUnreachable) {
      if (e.reason === 'no-answer') throw new ExtensionError('NODE_UNAVAILABLE', `The ${network.name} node sent no answer.`)
      if (e.reason === 'no-result') throw new ExtensionError('NODE_UNAVAILABLE', `The ${network.name} node sent no result for ${method}.`)
      throw new ExtensionError('NODE_UNAVAILABLE', `The ${network.name} node is not answering.`)
    }
    throw e
  }
}

/** A `0x…` quantity from a node, or NODE_UNAVAILABLE. */
export function quantity(value: unknown, what: string): bigint {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(value)) {
    throw new ExtensionError('NODE_UNAVAILABLE', `The node answered ${what} with no number.`)
  }
  return BigInt(value)
}
