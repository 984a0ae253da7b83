/** The EIP-1193 provider object exposed to dApps (EIP-1193 §API). */
import { isMethodName, isRpcParams, type ProviderEventName, type RpcParams } from '../protocol/page'
import { RPC_ERROR } from '../protocol/rpcErrors'
import { ProviderRpcError } from './errors'
import { createEventHub, type ProviderListener } from './events'
import type { Transport } from './transport'

/** EIP-1193 `request` arguments. */
export type RequestArguments = { readonly method: string; readonly params?: RpcParams }

/** Sigil's EIP-1193 provider. */
export type SigilProvider = {
  readonly isSigil: true
  request(args: RequestArguments): Promise<unknown>
  on(event: ProviderEventName, listener: ProviderListener): SigilProvider
  removeListener(event: ProviderEventName, listener: ProviderListener): SigilProvider
}

function invalidRequest(message: string): ProviderRpcError {
  return new ProviderRpcError({ code: RPC_ERROR.INVALID_REQUEST, message })
}

/**
 * Create a provider over `transport`. It emits `connect` `{ chainId }` after the first
 * successful `eth_chainId`, `chainChanged` / `accountsChanged` / `disconnect` when the
 * background pushes them, and `disconnect` when the relay reports 4900.
 */
export function createProvider(transport: Transport): SigilProvider {
  const hub = createEventHub()
  let chainId: string | undefined

  transport.onEvent((event, data) => {
    if (event === 'chainChanged' && typeof data === 'string') chainId = data
    if (event === 'disconnect') chainId = undefined
    hub.emit(event, data)
  })

  const provider: SigilProvider = {
    isSigil: true,
    request(args) {
      return new Promise((resolve, reject) => {
        if (typeof args !== 'object' || args === null) throw invalidRequest('Expected { method, params }')
        const { method, params } = args
        if (!isMethodName(method)) throw invalidRequest('Invalid method name')
        if (!isRpcParams(params)) throw invalidRequest('params must be an array or an object')
        transport.send(method, params, (outcome) => {
          if ('error' in outcome) {
            if (outcome.error.code === RPC_ERROR.DISCONNECTED && chainId !== undefined) {
              chainId = undefined
              hub.emit('disconnect', new ProviderRpcError(outcome.error))
            }
            reject(new ProviderRpcError(outcome.error))
            return
          }
          if (method === 'eth_chainId' && typeof outcome.result === 'string' && chainId === undefined) {
            chainId = outcome.result
            hub.emit('connect', { chainId })
          }
          resolve(outcome.result)
        })
      })
    },
    on(event, listener) {
      hub.on(event, listener)
      return provider
    },
    removeListener(event, listener) {
      hub.off(event, listener)
      return provider
    },
  }
  return provider
}
