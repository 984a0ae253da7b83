/**
 * Connecting a dApp (EIP-1102 `eth_requestAccounts`, EIP-2255 permissions): the user approves
 * sharing the first ETHEREUM account of list_wallet_accounts with the requesting origin, which
 * the router took from the browser's `sender`. `eth_accounts` shows the grant only while the
 * granting organization's session is live (locked → []).
 */
import { RPC_ERROR, rpcError, type RpcErrorObject } from '../../../protocol/rpcErrors'
import { ALREADY_PENDING } from '../../approval/approvals'
import { siteChain } from './chains'
import type { DappContext } from '../../methods'
import { failureOutcome, firstSessionAccount, NOT_LOGGED_IN, sessionOrLogin } from '../session'
import { readGrant, removeGrant, writeGrant } from './permissions'

/** The accounts `origin` may see now: `[address]` when connected, logged in and unlocked; else []. */
export async function accountsFor({ origin, core }: Pick<DappContext, 'origin' | 'core'>): Promise<string[]> {
  const session = await core.current()
  if (!session) return []
  const grant = await readGrant(core.deps.local, origin)
  return grant && grant.organizationId === session.record.organizationId ? [grant.address] : []
}

/** The session's first ADDRESS_FORMAT_ETHEREUM account, or undefined. */
function firstEthereumAccount(ctx: DappContext): Promise<string | undefined> {
  return firstSessionAccount(ctx, (a) => a.addressFormat === 'ADDRESS_FORMAT_ETHEREUM' && /^0x[0-9a-fA-F]{40}$/.test(a.address))
}

/** Ask the user to connect `origin`; the accounts on approval, else the rejection. */
export async function connect(ctx: DappContext): Promise<{ accounts: string[] } | { error: RpcErrorObject }> {
  const session = await sessionOrLogin(ctx)
  if ('error' in session) return session
  const existing = await accountsFor(ctx)
  if (existing.length > 0) return { accounts: existing }
  if (ctx.state.approvals.hasPendingFor(ctx.origin)) return { error: ALREADY_PENDING }
  let address: string | undefined
  try {
    address = await firstEthereumAccount(ctx)
  } catch (err) {
    return failureOutcome(err)
  }
  if (address === undefined) return { error: rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: this wallet has no Ethereum account') }
  const outcome = await ctx.dapp.ask(ctx.origin, 'eth_requestAccounts', {
    kind: 'connect',
    address,
    chain: (await siteChain(ctx)).label,
  })
  if (!outcome.approved) return { error: outcome.error }
  // The approval must land in the same session it was asked in.
  const now = await ctx.core.current()
  if (!now || now.record.organizationId !== session.record.organizationId) return { error: NOT_LOGGED_IN }
  await writeGrant(ctx.core.deps.local, ctx.origin, { address, organizationId: session.record.organizationId, grantedAt: ctx.core.now() })
  ctx.dapp.emit(ctx.origin, 'accountsChanged', [address])
  return { accounts: [address] }
}

/** EIP-2255 permission objects for `origin` (empty when not connected). */
export async function permissionsOf(ctx: DappContext): Promise<unknown[]> {
  const grant = await readGrant(ctx.core.deps.local, ctx.origin)
  if (!grant) return []
  const accounts = await accountsFor(ctx)
  return [
    {
      invoker: ctx.origin,
      parentCapability: 'eth_accounts',
      caveats: [{ type: 'restrictReturnedAccounts', value: accounts }],
      date: grant.grantedAt,
    },
  ]
}

/** Forget `origin`'s grant and tell its tabs. */
export async function revoke(ctx: DappContext): Promise<void> {
  if (await removeGrant(ctx.core.deps.local, ctx.origin)) ctx.dapp.emit(ctx.origin, 'accountsChanged', [])
}
