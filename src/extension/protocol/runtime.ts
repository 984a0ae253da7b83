/**
 * `browser.runtime` messages between the content relay / popup and the background.
 * Types only (plus the kind tags); the background validates every input with zod.
 */
import type { RpcErrorObject } from './rpcErrors'
import type { ProviderEventName, RpcParams } from './page'

/** Relay → background: one dApp request. The origin is never in the message (taken from `sender`). */
export type DappRpcMessage = { kind: 'dapp-rpc'; id: number; method: string; params?: RpcParams }

/** Background → relay: the answer to a {@link DappRpcMessage}. */
export type DappRpcReply = { result: unknown } | { error: RpcErrorObject }

/** Popup → background: one call into the popup table. */
export type PopupMessage = { kind: 'popup'; method: string; params?: unknown }

/** Stable failure codes of popup calls (the popup shows a message per code). */
export const POPUP_ERROR_CODES = [
  'METHOD_NOT_FOUND',
  'INVALID_ARGUMENT',
  'ORIGIN_NOT_ALLOWED',
  'INTERNAL',
  'NOT_LOGGED_IN',
  'SESSION_EXPIRED',
  'NO_PENDING_LOGIN',
  'NETWORK',
  'REQUEST_FAILED',
  'BUNDLE_INVALID',
  'SERVICE_UNVERIFIED',
  'SETTINGS_LOCKED',
  'NODE_UNAVAILABLE',
  'POLICY_DENIED',
  'REAUTH_REQUIRED',
  'WRONG_PASSWORD',
  'TOO_MANY_ATTEMPTS',
  'NO_PASSWORD',
] as const

/** One of {@link POPUP_ERROR_CODES}. */
export type PopupErrorCode = (typeof POPUP_ERROR_CODES)[number]

/** Default human message per popup failure code (background and popup share it). */
export const POPUP_ERROR_MESSAGES: Record<PopupErrorCode, string> = {
  METHOD_NOT_FOUND: 'This action is not available.',
  INVALID_ARGUMENT: 'The wallet could not read this request. Please try again.',
  ORIGIN_NOT_ALLOWED: 'This page may not talk to the wallet.',
  INTERNAL: 'Something went wrong inside the wallet.',
  NOT_LOGGED_IN: 'You are not logged in.',
  SESSION_EXPIRED: 'Your session has ended. Please log in again.',
  NO_PENDING_LOGIN: 'That step has expired. Please start again.',
  NETWORK: 'The Sigil service is not answering. Try again in a moment.',
  REQUEST_FAILED: 'The service refused the request.',
  BUNDLE_INVALID: 'The credential could not be decrypted.',
  SERVICE_UNVERIFIED: 'The service could not prove it is the one this wallet is connected to.',
  SETTINGS_LOCKED: 'This build of the wallet has fixed service settings.',
  NODE_UNAVAILABLE: 'The network’s node is not answering. Try again in a moment.',
  POLICY_DENIED: 'Denied by policy.',
  REAUTH_REQUIRED: 'Confirm it is you first.',
  WRONG_PASSWORD: 'That is not the wallet password.',
  TOO_MANY_ATTEMPTS: 'Too many wrong passwords. Wait a moment and try again.',
  NO_PASSWORD: 'No wallet password is set in this browser.',
}

/** Background → popup: result union of a {@link PopupMessage}. */
export type PopupReply<T = unknown> =
  | { ok: true; result: T }
  | { ok: false; error: { code: PopupErrorCode; message?: string; field?: string } }

/** Background → content script (tabs.sendMessage): a provider event to forward to the page. */
export type ProviderEventMessage = { kind: 'provider-event'; event: ProviderEventName; data: unknown }
