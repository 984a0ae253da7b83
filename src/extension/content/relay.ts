/**
 * ISOLATED-world relay between the page's provider and the background.
 * Pure parsing functions plus {@link startRelay}, which wires them to a window.
 * The relay never adds an origin: the background reads it from `sender`.
 */
import { INPAGE_TARGET, isPageRequest, isProviderEventName, type PageEvent, type PageRequest, type PageResponse } from '../protocol/page'
import { RPC_ERROR, isRpcErrorObject, rpcError } from '../protocol/rpcErrors'
import type { DappRpcMessage, ProviderEventMessage } from '../protocol/runtime'

/** The parts of a `MessageEvent` the relay looks at. */
export type WindowMessage = { source: unknown; data: unknown }

/** Accept only a well-formed request posted by this very window; otherwise null. */
export function parsePageRequest(event: WindowMessage, win: unknown): PageRequest | null {
  if (event.source !== win) return null
  return isPageRequest(event.data) ? event.data : null
}

/** The runtime message for a page request: only id, method, params (no origin). */
export function toDappRpcMessage(req: PageRequest): DappRpcMessage {
  const msg: DappRpcMessage = { kind: 'dapp-rpc', id: req.id, method: req.method }
  if (req.params !== undefined) msg.params = req.params
  return msg
}

/** Turn the background's reply (or a transport failure) into the page response. */
export function toPageResponse(id: number, reply: unknown): PageResponse {
  if (typeof reply === 'object' && reply !== null) {
    const r = reply as Record<string, unknown>
    if ('error' in r && isRpcErrorObject(r['error'])) {
      const { code, message } = r['error']
      return { target: INPAGE_TARGET, id, error: { code, message } }
    }
    if ('result' in r) return { target: INPAGE_TARGET, id, result: r['result'] }
  }
  return { target: INPAGE_TARGET, id, error: rpcError(RPC_ERROR.INTERNAL, 'Internal error') }
}

/** The page response when the background cannot be reached (extension reloaded or stopped). */
export function disconnectedResponse(id: number): PageResponse {
  return { target: INPAGE_TARGET, id, error: rpcError(RPC_ERROR.DISCONNECTED, 'Disconnected') }
}

/** The sender fields used to accept a pushed provider event. */
export type EventSender = { id?: string; tab?: unknown }

/** Accept a `provider-event` only from our own extension's background (no tab); otherwise null. */
export function parseProviderEvent(message: unknown, sender: EventSender, extensionId: string): PageEvent | null {
  if (sender.id !== extensionId || sender.tab !== undefined) return null
  if (typeof message !== 'object' || message === null) return null
  const m = message as Partial<ProviderEventMessage>
  if (m.kind !== 'provider-event' || !isProviderEventName(m.event)) return null
  return { target: INPAGE_TARGET, event: m.event, data: m.data }
}

/** What {@link startRelay} needs from its environment. */
export type RelayDeps = {
  win: Pick<Window, 'addEventListener' | 'removeEventListener' | 'postMessage'> & { location: { origin: string } }
  sendMessage: (message: DappRpcMessage) => Promise<unknown>
}

/** Listen for page requests, forward them, post answers back. Returns a stop function. */
export function startRelay({ win, sendMessage }: RelayDeps): () => void {
  const post = (msg: PageResponse | PageEvent) => win.postMessage(msg, win.location.origin)
  const onMessage = (event: MessageEvent) => {
    const req = parsePageRequest(event, win)
    if (!req) return
    sendMessage(toDappRpcMessage(req)).then(
      (reply) => post(toPageResponse(req.id, reply)),
      () => post(disconnectedResponse(req.id)),
    )
  }
  win.addEventListener('message', onMessage)
  return () => win.removeEventListener('message', onMessage)
}

/** Post a pushed provider event into the page. */
export function postProviderEvent(win: RelayDeps['win'], event: PageEvent): void {
  win.postMessage(event, win.location.origin)
}
