/**
 * What the dApp methods of every chain share: the session a request runs in (opening the login
 * window when logged out) and how its failures read to a page.
 */
import { RPC_ERROR, rpcError, type RpcErrorObject } from '../../protocol/rpcErrors'
import type { ActiveSession } from '../core'
import { ExtensionError } from '../failures'
import type { DappContext } from '../methods'

/** 4100 while nobody is logged in (the wording the provider tests pin). */
export const NOT_LOGGED_IN: RpcErrorObject = rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: not logged in')

/** Session failures become 4100; anything else -32603 (no details from the service leak to the page). */
export function failureOutcome(err: unknown): { error: RpcErrorObject } {
  if (err instanceof ExtensionError && (err.code === 'NOT_LOGGED_IN' || err.code === 'SESSION_EXPIRED')) return { error: NOT_LOGGED_IN }
  return { error: rpcError(RPC_ERROR.INTERNAL, 'The wallet could not complete the request') }
}

/**
 * The live session; when logged out, Sigil's window opens on the login screen and the
 * connect request goes on after the login (closing the window: 4001; no window possible: 4100).
 */
export async function sessionOrLogin(ctx: DappContext): Promise<ActiveSession | { error: RpcErrorObject }> {
  const session = await ctx.core.current()
  if (session) return session
  const login = await ctx.dapp.waitForLogin(ctx.origin)
  if (!login.approved) return { error: login.error }
  return (await ctx.core.current()) ?? { error: NOT_LOGGED_IN }
}
