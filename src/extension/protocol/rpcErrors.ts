/**
 * EIP-1193 / JSON-RPC error codes (EIP-1193 §Provider Errors, EIP-1474), shared by the
 * background router and the inpage provider. Dependency-free: ships in the inpage bundle.
 */

/** Numeric provider error codes. */
export const RPC_ERROR = {
  USER_REJECTED: 4001,
  UNAUTHORIZED: 4100,
  UNSUPPORTED_METHOD: 4200,
  DISCONNECTED: 4900,
  CHAIN_DISCONNECTED: 4901,
  INVALID_REQUEST: -32600,
  INVALID_PARAMS: -32602,
  INTERNAL: -32603,
} as const
/** One of {@link RPC_ERROR}. */
export type RpcErrorCode = (typeof RPC_ERROR)[keyof typeof RPC_ERROR]

/** The plain-object error carried over postMessage / runtime messages. */
export type RpcErrorObject = { code: number; message: string; data?: unknown }

/** Build an {@link RpcErrorObject}. */
export function rpcError(code: RpcErrorCode, message: string): RpcErrorObject {
  return { code, message }
}

/** Shape check: integer `code` and string `message`. */
export function isRpcErrorObject(v: unknown): v is RpcErrorObject {
  if (typeof v !== 'object' || v === null) return false
  const o = v as Record<string, unknown>
  return Number.isInteger(o['code']) && typeof o['message'] === 'string'
}
