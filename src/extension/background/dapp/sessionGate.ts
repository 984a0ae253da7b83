/**
 * A dApp request that needs the session (signing, sending, typed data, Solana sign/send…) when
 * the session is gone (expired, locked, revoked, logged out): if the site holds a grant of that
 * chain family, Sigil's window opens on the login screen and the request waits, then goes on in
 * the new session when it is the grant's organization (else 4100). Closing the window or its
 * timeout is 4001, no window possible is 4100 (services.ts waitForLogin). A site without a grant
 * opens nothing: its handler answers 4100 as before, so an unconnected page cannot pop a window.
 * The router runs this for the rows of the dApp tables marked `session`.
 */
import type { RpcErrorObject } from '../../protocol/rpcErrors'
import type { DappContext } from '../methods'
import { readGrant } from './evm/permissions'
import { NOT_LOGGED_IN } from './session'
import { readSolanaGrant } from './solana/permissions'

/** The chain family whose grant lets a request wait for a login. */
export type SessionFamily = 'evm' | 'solana'

/** `undefined` to go on (logged in, or nothing to wait for); the error to answer otherwise. */
export async function loginIfGranted(ctx: DappContext, family: SessionFamily): Promise<{ error: RpcErrorObject } | undefined> {
  if (await ctx.core.current()) return undefined
  const local = ctx.core.deps.local
  const grant = family === 'evm' ? await readGrant(local, ctx.origin) : await readSolanaGrant(local, ctx.origin)
  if (!grant) return undefined
  const login = await ctx.dapp.waitForLogin(ctx.origin)
  if (!login.approved) return { error: login.error }
  const session = await ctx.core.current()
  if (!session || session.record.organizationId !== grant.organizationId) return { error: NOT_LOGGED_IN }
  return undefined
}
