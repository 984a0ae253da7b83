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
  /** EIP-5792: a non-optional capability the wallet does not support. */
  UNSUPPORTED_CAPABILITY: 5700,
  /** EIP-5792: the batch's chain is not the one the wallet can send on for the site. */
  UNSUPPORTED_CHAIN_ID: 5710,
  /** EIP-5792: a batch id the site already used. */
  DUPLICATE_ID: 5720,
  /** EIP-5792: no batch with this id (for this site). */
  UNKNOWN_BUNDLE_ID: 5730,
  /** EIP-5792: more calls than the wallet sends in one batch. */
  BUNDLE_TOO_LARGE: 5740,
  /** EIP-5792: `atomicRequired` but the account cannot execute the batch atomically on this chain. */
  ATOMICITY_NOT_SUPPORTED: 5760,
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
