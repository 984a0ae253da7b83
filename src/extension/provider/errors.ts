/** The Error subclass the provider rejects with (EIP-1193 §Provider Errors: `code`, optional `data`). */
import type { RpcErrorObject } from '../protocol/rpcErrors'

/** An EIP-1193 provider error: `instanceof Error` with a numeric `code`. */
export class ProviderRpcError extends Error {
  readonly code: number
  readonly data?: unknown

  constructor(error: RpcErrorObject) {
    super(error.message)
    this.name = 'ProviderRpcError'
    this.code = error.code
    if (error.data !== undefined) this.data = error.data
  }
}
