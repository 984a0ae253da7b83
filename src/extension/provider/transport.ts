/**
 * Page-side transport: posts {@link PageRequest}s to the relay and matches answers by id.
 * Only messages whose `source` is this window and whose shape checks out are accepted.
 */
import { CONTENT_TARGET, parseInpageMessage, type PageRequest, type ProviderEventName, type RpcParams } from '../protocol/page'
import type { RpcErrorObject } from '../protocol/rpcErrors'

/** Settles one request: `result` or `error`. */
export type Settle = (outcome: { result: unknown } | { error: RpcErrorObject }) => void

/** What the provider needs from the relay. */
export type Transport = {
  send(method: string, params: RpcParams | undefined, settle: Settle): void
  /** Add a listener for pushed events (the EIP-1193 provider and the Wallet Standard wallet share one transport). */
  onEvent(handler: (event: ProviderEventName, data: unknown) => void): void
}

/** The window surface the transport uses (a real `Window` in the page). */
export type TransportWindow = Pick<Window, 'postMessage' | 'addEventListener'> & {
  location: { origin: string }
}

/** Create the postMessage transport bound to `win`. */
export function createWindowTransport(win: TransportWindow): Transport {
  const pending = new Map<number, Settle>()
  let nextId = 1
  const eventHandlers: Array<(event: ProviderEventName, data: unknown) => void> = []

  win.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== win) return
    const msg = parseInpageMessage(event.data)
    if (!msg) return
    if ('event' in msg) {
      for (const handler of eventHandlers) handler(msg.event, msg.data)
      return
    }
    const settle = pending.get(msg.id)
    if (!settle) return
    pending.delete(msg.id)
    settle('error' in msg ? { error: msg.error } : { result: msg.result })
  })

  return {
    send(method, params, settle) {
      const id = nextId++
      pending.set(id, settle)
      const msg: PageRequest = { target: CONTENT_TARGET, id, method }
      if (params !== undefined) msg.params = params
      win.postMessage(msg, win.location.origin)
    },
    onEvent(handler) {
      eventHandlers.push(handler)
    },
  }
}
