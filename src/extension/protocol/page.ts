/**
 * Window messages between the MAIN-world provider and the ISOLATED-world relay.
 * Kept dependency-free (no zod): it ships in the inpage bundle.
 *
 * Request:  `{ target: 'sigil-content', id, method, params? }` (page → relay)
 * Response: `{ target: 'sigil-inpage', id, result | error }`    (relay → page)
 * Event:    `{ target: 'sigil-inpage', event, data }`          (relay → page)
 */
import { isRpcErrorObject, type RpcErrorObject } from './rpcErrors'

/** `target` of messages the relay accepts. */
export const CONTENT_TARGET = 'sigil-content'
/** `target` of messages the provider accepts. */
export const INPAGE_TARGET = 'sigil-inpage'

/** EIP-1193 request params: positional or named. */
export type RpcParams = readonly unknown[] | { readonly [key: string]: unknown }

/** A dApp request as posted by the provider. */
export type PageRequest = {
  target: typeof CONTENT_TARGET
  id: number
  method: string
  params?: RpcParams
}

/** The answer to one {@link PageRequest}. */
export type PageResponse =
  | { target: typeof INPAGE_TARGET; id: number; result: unknown }
  | { target: typeof INPAGE_TARGET; id: number; error: RpcErrorObject }

/** EIP-1193 events the provider emits, and the Wallet Standard wallet's account changes. */
export const PROVIDER_EVENTS = ['accountsChanged', 'chainChanged', 'connect', 'disconnect', 'solanaAccountsChanged'] as const
/** One of {@link PROVIDER_EVENTS}. */
export type ProviderEventName = (typeof PROVIDER_EVENTS)[number]

/** A provider event pushed from the background through the relay. */
export type PageEvent = { target: typeof INPAGE_TARGET; event: ProviderEventName; data: unknown }

const METHOD_RE = /^[A-Za-z][A-Za-z0-9_]{0,63}$/

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null
}

/** True for a positive safe integer: the only request id shape we use. */
export function isRequestId(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0
}

/** True for a method name the router could know (letters, digits, `_`; ≤ 64 chars). */
export function isMethodName(v: unknown): v is string {
  return typeof v === 'string' && METHOD_RE.test(v)
}

/** True for `undefined`, an array or an object. */
export function isRpcParams(v: unknown): v is RpcParams | undefined {
  return v === undefined || Array.isArray(v) || isObject(v)
}

/** True for an event name in {@link PROVIDER_EVENTS}. */
export function isProviderEventName(v: unknown): v is ProviderEventName {
  return typeof v === 'string' && (PROVIDER_EVENTS as readonly string[]).includes(v)
}

/** Shape check of a request message (no extra keys needed, extra keys ignored). */
export function isPageRequest(data: unknown): data is PageRequest {
  return (
    isObject(data) &&
    data['target'] === CONTENT_TARGET &&
    isRequestId(data['id']) &&
    isMethodName(data['method']) &&
    isRpcParams(data['params'])
  )
}

/** Shape check of a relay → page message; returns null when it is not one. */
export function parseInpageMessage(data: unknown): PageResponse | PageEvent | null {
  if (!isObject(data) || data['target'] !== INPAGE_TARGET) return null
  if (isRequestId(data['id'])) {
    const hasResult = 'result' in data
    const hasError = 'error' in data
    if (hasResult === hasError) return null
    if (hasResult) return { target: INPAGE_TARGET, id: data['id'], result: data['result'] }
    const error = data['error']
    return isRpcErrorObject(error) ? { target: INPAGE_TARGET, id: data['id'], error } : null
  }
  if (isProviderEventName(data['event'])) {
    return { target: INPAGE_TARGET, event: data['event'], data: data['data'] }
  }
  return null
}
