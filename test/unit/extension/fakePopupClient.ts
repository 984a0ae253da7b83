/**
 * The popup's channel to the background, answered by `handlers` (by popup method name); a method
 * without a handler answers METHOD_NOT_FOUND, as the background's closed table does. `calls`
 * records every call in order.
 */
import type { PopupClient } from '@/src/extension/popup/client'

export type PopupHandler<P = unknown> = (params: P) => unknown

export function fakeClient<P = unknown>(handlers: Record<string, PopupHandler<P>>): PopupClient & { calls: Array<[string, P]> } {
  const calls: Array<[string, P]> = []
  return {
    calls,
    call: (async (method: string, params?: unknown) => {
      calls.push([method, params as P])
      const h = handlers[method]
      return h ? h(params as P) : { ok: false, error: { code: 'METHOD_NOT_FOUND' } }
    }) as PopupClient['call'],
  }
}
