/**
 * Background failures as stable popup codes (protocol/runtime.ts POPUP_ERROR_CODES).
 * Messages are for people and never carry keys, bundles, OTP codes or stamps.
 */
import { SigilError, SigilRequestError } from '../../api/errors'
import { POPUP_ERROR_MESSAGES, type PopupErrorCode } from '../protocol/runtime'
import { deniedByPolicyText, POLICY_DENIED } from './activity/policyText'

/** A failure a popup method reports with its own code. */
export class ExtensionError extends Error {
  override name = 'ExtensionError'
  readonly code: PopupErrorCode
  /** The form field at fault, when one is. */
  readonly field: string | undefined

  constructor(code: PopupErrorCode, message: string, field?: string) {
    super(message)
    this.code = code
    this.field = field
  }
}

/** The failure of one popup call, as sent to the popup. */
export type PopupFailure = { code: PopupErrorCode; message: string; field?: string }

/** Keep service messages short and printable (they come from a remote server). */
function clean(message: string): string {
  const oneLine = message.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim()
  return oneLine.length > 300 ? `${oneLine.slice(0, 297)}…` : oneLine
}

/** Server refusals that mean "this session's key is no longer valid". */
export function isSessionKeyRejected(err: unknown): boolean {
  if (!(err instanceof SigilRequestError) || err.status !== 401) return false
  return err.code === 'STAMP_KEY_EXPIRED' || err.code === 'STAMP_KEY_UNKNOWN' || /expired api key/i.test(err.message)
}

/** Map anything a handler threw to a {@link PopupFailure}. */
export function toPopupFailure(err: unknown): PopupFailure {
  if (err instanceof ExtensionError)
    return { code: err.code, message: clean(err.message), ...(err.field === undefined ? {} : { field: err.field }) }
  // The organization's policies denied the activity (403): say so, with the policies the service names.
  if (err instanceof SigilRequestError && err.code === POLICY_DENIED)
    return { code: 'POLICY_DENIED', message: deniedByPolicyText(err.message) }
  if (err instanceof SigilRequestError)
    return { code: 'REQUEST_FAILED', message: clean(err.message) || POPUP_ERROR_MESSAGES.REQUEST_FAILED }
  if (err instanceof SigilError) {
    if (err.code === 'NETWORK') return { code: 'NETWORK', message: POPUP_ERROR_MESSAGES.NETWORK }
    if (err.code === 'INVALID_ARGUMENT') return { code: 'INVALID_ARGUMENT', message: clean(err.message) }
    if (err.code === 'BAD_RESPONSE') return { code: 'REQUEST_FAILED', message: 'The service sent an unexpected answer.' }
  }
  return { code: 'INTERNAL', message: POPUP_ERROR_MESSAGES.INTERNAL }
}
