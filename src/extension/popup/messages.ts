/** Human messages for popup failure codes (protocol/runtime.ts POPUP_ERROR_CODES). */
import { POPUP_ERROR_MESSAGES, type PopupErrorCode, type PopupReply } from '../protocol/runtime'

const MESSAGES: Record<PopupErrorCode, string> = {
  ...POPUP_ERROR_MESSAGES,
  INTERNAL: 'Something went wrong inside the wallet. Please try again.',
}

/** The message to show for a failed reply. */
export function failureText(reply: Extract<PopupReply, { ok: false }>): string {
  return reply.error.message || MESSAGES[reply.error.code]
}

/** True when a failure means the session is gone (the app reloads its status). */
export function isSessionLost(reply: PopupReply): boolean {
  return !reply.ok && (reply.error.code === 'NOT_LOGGED_IN' || reply.error.code === 'SESSION_EXPIRED')
}
