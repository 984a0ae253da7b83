/** Human messages for popup failure codes (protocol/runtime.ts POPUP_ERROR_CODES). */
import type { PopupErrorCode, PopupReply } from '../protocol/runtime'

const MESSAGES: Record<PopupErrorCode, string> = {
  METHOD_NOT_FOUND: 'This action is not available.',
  INVALID_ARGUMENT: 'Some input is not valid.',
  ORIGIN_NOT_ALLOWED: 'This page may not talk to the wallet.',
  INTERNAL: 'Something went wrong inside the wallet. Please try again.',
  NOT_LOGGED_IN: 'You are not logged in.',
  SESSION_EXPIRED: 'Your session has ended. Please log in again.',
  NO_PENDING_LOGIN: 'That step has expired. Please start again.',
  NETWORK: 'Could not reach the service. Check the URLs in Settings.',
  REQUEST_FAILED: 'The service refused the request.',
  BUNDLE_INVALID: 'The credential could not be decrypted.',
}

/** The message to show for a failed reply. */
export function failureText(reply: Extract<PopupReply, { ok: false }>): string {
  return reply.error.message || MESSAGES[reply.error.code]
}

/** True when a failure means the session is gone (the app reloads its status). */
export function isSessionLost(reply: PopupReply): boolean {
  return !reply.ok && (reply.error.code === 'NOT_LOGGED_IN' || reply.error.code === 'SESSION_EXPIRED')
}
