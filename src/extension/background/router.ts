/**
 * The closed background router (style.md habit 6): two literal allow-lists, deny by default.
 * - kind 'dapp-rpc' (from the content relay): sender must be a tab on an http(s) origin;
 *   answers are EIP-1193 `{ result } | { error }`, unknown methods 4200.
 * - kind 'popup' (from extension pages): `sender.url` must be under the extension's own
 *   origin; answers are `{ ok, result } | { ok:false, error:{ code } }`, unknown METHOD_NOT_FOUND.
 * Origins come from `sender` only, never from the message.
 */
import { z } from 'zod'
import { isMethodName } from '../protocol/page'
import { RPC_ERROR, rpcError } from '../protocol/rpcErrors'
import type { DappRpcReply, PopupErrorCode, PopupReply } from '../protocol/runtime'
import { TOO_MANY_PENDING } from './approval/approvals'
import { DAPP_METHODS } from './dapp/evm/methods'
import { loginIfGranted } from './dapp/sessionGate'
import { fieldFailure } from './fieldErrors'
import type { Core } from './core'
import { createDappServices, WINDOWLESS_PLATFORM, type DappServices } from './dapp/services'
import { toPopupFailure } from './failures'
import type { DappMethod, PopupMethod } from './methods'
import { POPUP_METHODS } from './popupMethods'
import { SOLANA_METHODS } from './dapp/solana/methods'
import type { BackgroundState } from './state'

/** The `runtime.MessageSender` fields the router reads. */
export type Sender = { id?: string; url?: string; origin?: string; tab?: unknown; documentId?: string }

/** Router dependencies: state plus the extension's identity as seen by the runtime. */
export type RouterContext = {
  state: BackgroundState
  /** `browser.runtime.id` */
  extensionId: string
  /** `browser.runtime.getURL('/')`, e.g. `chrome-extension://<id>/` */
  extensionBaseUrl: string
  /** Sessions, settings and the service clients. */
  core: Core
  /** Approval windows and pushed events; without it every approval is rejected (fail-closed). */
  dapp?: DappServices
}

const dappEnvelope = z.object({
  kind: z.literal('dapp-rpc'),
  id: z.number().int().positive(),
  method: z.string().refine(isMethodName),
  params: z.unknown().optional(),
})

const popupEnvelope = z.object({
  kind: z.literal('popup'),
  method: z.string().max(64),
  params: z.unknown().optional(),
})

function lookup<T>(table: Record<string, T>, method: string): T | undefined {
  return Object.hasOwn(table, method) ? table[method] : undefined
}

/** The web origin of a tab sender, or null if the sender is not a tab on http(s). */
export function dappOrigin(sender: Sender, extensionId: string): string | null {
  if (sender.id !== extensionId || sender.tab === undefined) return null
  let origin = sender.origin
  if (origin === undefined && sender.url !== undefined) {
    try {
      origin = new URL(sender.url).origin
    } catch {
      return null
    }
  }
  return origin !== undefined && /^https?:\/\/[^/]+$/.test(origin) ? origin : null
}

/** True when the sender is one of this extension's own pages (popup, options, …). */
export function isExtensionPage(sender: Sender, ctx: RouterContext): boolean {
  return sender.id === ctx.extensionId && typeof sender.url === 'string' && sender.url.startsWith(ctx.extensionBaseUrl)
}

/** Route one dApp RPC message. Always resolves to an EIP-1193 reply. */
export async function routeDappRpc(message: unknown, sender: Sender, ctx: RouterContext): Promise<DappRpcReply> {
  const origin = dappOrigin(sender, ctx.extensionId)
  if (origin === null) return { error: rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: sender is not a web page') }
  const env = dappEnvelope.safeParse(message)
  if (!env.success) return { error: rpcError(RPC_ERROR.INVALID_REQUEST, 'Invalid request') }
  const { method, params } = env.data
  const row: DappMethod<z.ZodType> | undefined = lookup(DAPP_METHODS, method) ?? lookup(SOLANA_METHODS, method)
  if (!row) return { error: rpcError(RPC_ERROR.UNSUPPORTED_METHOD, `Unsupported method: ${method}`) }
  const parsed = row.params.safeParse(params)
  if (!parsed.success) return { error: rpcError(RPC_ERROR.INVALID_PARAMS, `Invalid params for ${method}`) }
  const services = ctx.dapp ?? createDappServices(ctx.state, ctx.core, WINDOWLESS_PLATFORM)
  const tabId = (sender.tab as { id?: unknown } | null)?.id
  if (typeof tabId === 'number') services.seen(origin, tabId, typeof sender.documentId === 'string' ? sender.documentId : undefined)
  // A request that may ask the user holds one of its site's places from here until it settles: a
  // flooding site's excess requests are refused now, before any handler work.
  const admitted = row.asks ? services.admit(origin) : undefined
  if (row.asks && !admitted) return { error: TOO_MANY_PENDING }
  try {
    await services.ready
    const dappCtx = { origin, state: ctx.state, core: ctx.core, dapp: admitted?.dapp ?? services }
    if (row.session) {
      const refused = await loginIfGranted(dappCtx, row.session)
      if (refused) return refused
    }
    return await row.handler(parsed.data, dappCtx)
  } catch {
    return { error: rpcError(RPC_ERROR.INTERNAL, 'Internal error') }
  } finally {
    admitted?.release()
  }
}

function popupError(code: PopupErrorCode): PopupReply<never> {
  return { ok: false, error: { code } }
}

/** Route one popup message. Always resolves to a {@link PopupReply}. */
export async function routePopup(message: unknown, sender: Sender, ctx: RouterContext): Promise<PopupReply> {
  if (!isExtensionPage(sender, ctx)) return popupError('ORIGIN_NOT_ALLOWED')
  const env = popupEnvelope.safeParse(message)
  if (!env.success) return popupError('INVALID_ARGUMENT')
  const row: PopupMethod<z.ZodType, unknown> | undefined = lookup(POPUP_METHODS, env.data.method)
  if (!row) return popupError('METHOD_NOT_FOUND')
  const parsed = row.params.safeParse(env.data.params)
  if (!parsed.success) return { ok: false, error: toPopupFailure(fieldFailure(parsed.error.issues)) }
  try {
    const popupCtx = { state: ctx.state, extensionId: ctx.extensionId, core: ctx.core, ...(ctx.dapp ? { dapp: ctx.dapp } : {}) }
    return { ok: true, result: await row.handler(parsed.data, popupCtx) }
  } catch (err) {
    return { ok: false, error: toPopupFailure(err) }
  }
}

/** Dispatch by `kind`; `undefined` for anything that is not a router message. */
export function routeMessage(message: unknown, sender: Sender, ctx: RouterContext): Promise<DappRpcReply | PopupReply> | undefined {
  const kind = typeof message === 'object' && message !== null ? (message as { kind?: unknown }).kind : undefined
  if (kind === 'dapp-rpc') return routeDappRpc(message, sender, ctx)
  if (kind === 'popup') return routePopup(message, sender, ctx)
  return undefined
}
