/**
 * Typed popup → background client. Components call this, never `browser.*` (style.md habit 1).
 * Replies are shape-checked (zod/mini keeps the popup bundle small).
 */
import * as z from 'zod/mini'
import type { PopupApi, PopupMethodName } from '../background/popupMethods'
import type { PopupErrorCode, PopupMessage, PopupReply } from '../protocol/runtime'

/** Result schemas per method, kept in sync with the background table by the `satisfies` below. */
const RESULTS = {
  ping: z.object({ pong: z.number() }),
  getStatus: z.object({ loggedIn: z.boolean(), extensionId: z.string() }),
} satisfies { [K in PopupMethodName]: z.ZodMiniType<PopupApi[K]['result']> }

const failure = z.object({
  ok: z.literal(false),
  error: z.object({
    code: z.enum(['METHOD_NOT_FOUND', 'INVALID_ARGUMENT', 'ORIGIN_NOT_ALLOWED', 'INTERNAL'] satisfies PopupErrorCode[]),
  }),
})

const success = z.object({ ok: z.literal(true), result: z.unknown() })

/** How the client reaches the background (`browser.runtime.sendMessage` in the popup). */
export type SendToBackground = (message: PopupMessage) => Promise<unknown>

/** The popup's view of the background. */
export type PopupClient = {
  call<M extends PopupMethodName>(method: M): Promise<PopupReply<PopupApi[M]['result']>>
}

/** Create a {@link PopupClient}; transport failures and malformed replies become `INTERNAL`. */
export function createPopupClient(send: SendToBackground): PopupClient {
  return {
    async call(method) {
      let reply: unknown
      try {
        reply = await send({ kind: 'popup', method })
      } catch {
        return { ok: false, error: { code: 'INTERNAL' } }
      }
      const bad = failure.safeParse(reply)
      if (bad.success) return { ok: false, error: { code: bad.data.error.code } }
      const envelope = success.safeParse(reply)
      const result = envelope.success ? RESULTS[method].safeParse(envelope.data.result) : undefined
      if (result?.success) return { ok: true, result: result.data as PopupApi[typeof method]['result'] }
      return { ok: false, error: { code: 'INTERNAL' } }
    },
  }
}
