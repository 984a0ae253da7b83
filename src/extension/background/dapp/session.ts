/**
 * What the dApp methods of every chain share: the session a request runs in (opening the login
 * window when logged out), how its failures read to a page, and the session's first account of a kind.
 */
import { RPC_ERROR, rpcError, type RpcErrorObject } from '../../protocol/rpcErrors'
import type { ActiveSession } from '../core'
import { ExtensionError } from '../failures'
import type { DappContext } from '../methods'

/** 4100 while nobody is logged in (the wording the provider tests pin). */
export const NOT_LOGGED_IN: RpcErrorObject = rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: not logged in')

/** The first account of the session's organization that `matches` (up to 2,000 accounts are read), or undefined. */
export async function firstSessionAccount(
  ctx: DappContext,
  matches: (account: { addressFormat: string; address: string }) => boolean,
): Promise<string | undefined> {
  return ctx.core.withSession(async (client, s) => {
    let after: string | undefined
    for (let page = 0; page < 20; page++) {
      const { accounts } = await client.listWalletAccounts({
        organizationId: s.record.organizationId,
        paginationOptions: after === undefined ? { limit: '100' } : { limit: '100', after },
      })
      const found = accounts.find(matches)
      if (found) return found.address
      const last = accounts[accounts.length - 1]
      if (accounts.length < 100 || !last) return undefined
      after = last.walletAccountId
    }
    return undefined
  })
}

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
