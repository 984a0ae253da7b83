/**
 * Background failures as stable popup codes (protocol/runtime.ts POPUP_ERROR_CODES).
 * Messages are for people and never carry keys, bundles, OTP codes or stamps.
 */
import { SigilError, SigilRequestError } from '../../api/errors'
import type { PopupErrorCode } from '../protocol/runtime'

/** A failure a popup method reports with its own code. */
export class ExtensionError extends Error {
  override name = 'ExtensionError'
  readonly code: PopupErrorCode

  constructor(code: PopupErrorCode, message: string) {
    super(message)
    this.code = code
  }
}

/** The failure of one popup call, as sent to the popup. */
export type PopupFailure = { code: PopupErrorCode; message: string }

/** Default human messages per code. */
export const FAILURE_MESSAGES: Record<PopupErrorCode, string> = {
  METHOD_NOT_FOUND: 'This action is not available.',
  INVALID_ARGUMENT: 'Some input is not valid.',
  ORIGIN_NOT_ALLOWED: 'This page may not talk to the wallet.',
  INTERNAL: 'Something went wrong inside the wallet.',
  NOT_LOGGED_IN: 'You are not logged in.',
  SESSION_EXPIRED: 'Your session has ended. Please log in again.',
  NO_PENDING_LOGIN: 'That step has expired. Please start again.',
  NETWORK: 'Could not reach the service. Check the URLs in Settings.',
  REQUEST_FAILED: 'The service refused the request.',
  BUNDLE_INVALID: 'The credential could not be decrypted.',
}

/** Keep service messages short and printable (they come from a remote server). */
function clean(message: string): string {
  const oneLine = message.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()
  return oneLine.length > 300 ? `${oneLine.slice(0, 297)}…` : oneLine
}

/** Server refusals that mean "this session's key is no longer valid". */
export function isSessionKeyRejected(err: unknown): boolean {
  if (!(err instanceof SigilRequestError) || err.status !== 401) return false
  return err.reason === 'STAMP_KEY_EXPIRED' || err.reason === 'STAMP_KEY_UNKNOWN' || /expired api key/i.test(err.message)
}

/** Map anything a handler threw to a {@link PopupFailure}. */
export function toPopupFailure(err: unknown): PopupFailure {
  if (err instanceof ExtensionError) return { code: err.code, message: clean(err.message) }
  if (err instanceof SigilRequestError) return { code: 'REQUEST_FAILED', message: clean(err.message) || FAILURE_MESSAGES.REQUEST_FAILED }
  if (err instanceof SigilError) {
    if (err.code === 'NETWORK') return { code: 'NETWORK', message: FAILURE_MESSAGES.NETWORK }
    if (err.code === 'INVALID_ARGUMENT') return { code: 'INVALID_ARGUMENT', message: clean(err.message) }
    if (err.code === 'BAD_RESPONSE') return { code: 'REQUEST_FAILED', message: 'The service sent an unexpected answer.' }
  }
  return { code: 'INTERNAL', message: FAILURE_MESSAGES.INTERNAL }
}
