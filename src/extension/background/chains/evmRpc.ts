/**
 * JSON-RPC to an EVM network's node (the RPC URL of the service's signed network list, or one
 * the user added). A node's own error answer is an {@link EvmRpcError}; a node that cannot be
 * reached, answers HTTP errors or garbage is an {@link EvmRpcUnreachable}. Neither's text is for a
 * page: what a dApp gets back is a fixed message (dapp/evm/read.ts#mapNodeError, dapp/evm/addChain.ts).
 */

/** How long one call may take. */
export const RPC_TIMEOUT_MS = 10_000

/** The node answered with a JSON-RPC error. */
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

/** Call `method` on the node at `rpcUrl` (with the global `fetch` when none is given). */
export async function evmRpc<T>(
  fetchFn: typeof fetch | undefined,
  rpcUrl: string,
  method: string,
  params: readonly unknown[],
  timeoutMs = RPC_TIMEOUT_MS,
): Promise<T> {
  let body: unknown
  try {
    const res = await (fetchFn ?? fetch)(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
      // No cookies, and no redirect to a URL nobody approved (an added RPC could point anywhere).
      credentials: 'omit',
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    })
    body = await res.json()
  } catch {
    throw new EvmRpcUnreachable(`the RPC node did not answer ${method}`)
  }
  if (typeof body !== 'object' || body === null) throw new EvmRpcUnreachable(`the RPC node gave no JSON-RPC answer to ${method}`)
  const { result, error } = body as { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } }
  if (error !== undefined && error !== null) {
    const code = typeof error.code === 'number' && Number.isInteger(error.code) ? error.code : -32603
    const message = typeof error.message === 'string' ? error.message.slice(0, 300) : 'RPC error'
    throw new EvmRpcError(code, message, error.data)
  }
  if (!('result' in body)) throw new EvmRpcUnreachable(`the RPC node gave no result for ${method}`)
  return result as T
}
