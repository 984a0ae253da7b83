/**
 * Typed popup → background client. Components call this, never `browser.*` (style.md habit 1).
 * The background validates every input (the trust boundary); here the reply envelope is
 * shape-checked with zod/mini (small popup bundle) and failure codes must be known ones.
 * Result bodies come from the extension's own background and are typed by the method table.
 */
import * as z from 'zod/mini'
import type { PopupApi, PopupMethodName } from '../protocol/popupApi'
import { POPUP_ERROR_CODES, type PopupMessage, type PopupReply } from '../protocol/runtime'

const failure = z.object({
  ok: z.literal(false),
  error: z.object({ code: z.enum(POPUP_ERROR_CODES), message: z.optional(z.string()), field: z.optional(z.string()) }),
})

const success = z.object({ ok: z.literal(true), result: z.unknown() })

/** How the client reaches the background (`browser.runtime.sendMessage` in the popup). */
export type SendToBackground = (message: PopupMessage) => Promise<unknown>

/** Arguments after the method name: none for parameterless methods. */
export type ParamsArg<M extends PopupMethodName> = PopupApi[M]['params'] extends undefined ? [] : [PopupApi[M]['params']]

/** The popup's view of the background. */
export type PopupClient = {
  call<M extends PopupMethodName>(method: M, ...params: ParamsArg<M>): Promise<PopupReply<PopupApi[M]['result']>>
}

/** Create a {@link PopupClient}; transport failures and malformed replies become `INTERNAL`. */
export function createPopupClient(send: SendToBackground): PopupClient {
  return {
    async call(method, ...params) {
      let reply: unknown
      const message: PopupMessage = params.length === 0 ? { kind: 'popup', method } : { kind: 'popup', method, params: params[0] }
      try {
        reply = await send(message)
      } catch {
        return { ok: false, error: { code: 'INTERNAL' } }
      }
      const bad = failure.safeParse(reply)
      if (bad.success) {
        const { code, message: text, field } = bad.data.error
        return {
          ok: false,
          error: { code, ...(text === undefined ? {} : { message: text }), ...(field === undefined ? {} : { field }) },
        }
      }
      const envelope = success.safeParse(reply)
      if (envelope.success && envelope.data.result !== undefined) {
        return { ok: true, result: envelope.data.result as PopupApi[typeof method]['result'] }
      }
      return { ok: false, error: { code: 'INTERNAL' } }
    },
  }
}
