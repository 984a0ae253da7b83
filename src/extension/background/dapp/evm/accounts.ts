/**
 * Connecting a dApp (EIP-1102 `eth_requestAccounts`, EIP-2255 permissions): the user chooses in
 * our window which of their Ethereum accounts the requesting origin (taken by the router from the
 * browser's `sender`) may see, one or several; the grant keeps them in order, the active one
 * first, as `eth_accounts` returns them. `eth_accounts` shows the grant only while the granting
 * organization's session is live (locked → []).
 */
import { RPC_ERROR, rpcError, type RpcErrorObject } from '../../../protocol/rpcErrors'
import { siteChain } from './chains'
import type { DappContext } from '../../methods'
import { failureOutcome, NOT_LOGGED_IN, sessionOrLogin } from '../session'
import { addressKey, optionsOf, sessionAccounts } from '../siteAccounts'
import { readGrant, removeGrant, writeGrant } from './permissions'

/** The accounts `origin` may see now, the active one first, while connected, logged in and unlocked; else []. */
export async function accountsFor({ origin, core }: Pick<DappContext, 'origin' | 'core'>): Promise<string[]> {
  const session = await core.current()
  if (!session) return []
  const grant = await readGrant(core.deps.local, origin)
  return grant && grant.organizationId === session.record.organizationId ? [...grant.accounts] : []
}

/**
 * Ask the user to connect `origin`, choosing its accounts; the accounts on approval, else the
 * rejection. A connected site gets its accounts without a window unless `reask` (EIP-2255
 * `wallet_requestPermissions` asks again, the current accounts checked).
 */
export async function connect(
  ctx: DappContext,
  opts: { reask?: boolean } = {},
): Promise<{ accounts: string[] } | { error: RpcErrorObject }> {
  const session = await sessionOrLogin(ctx)
  if ('error' in session) return session
  const existing = await accountsFor(ctx)
  if (existing.length > 0 && opts.reask !== true) return { accounts: existing }
  let options
  try {
    options = optionsOf(await ctx.core.withSession((client, s) => sessionAccounts(client, s, ctx.core.deps.local)), 'evm')
  } catch (err) {
    return failureOutcome(err)
  }
  const first = options[0]
  if (first === undefined) return { error: rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: this wallet has no Ethereum account') }
  // The site's current accounts stay checked (when still offered); a new site starts with the first account.
  const offered = new Set(options.map((o) => addressKey('evm', o.address)))
  const previous = existing.filter((a) => offered.has(addressKey('evm', a)))
  const selected = previous.length > 0 ? previous : [first.address]
  const outcome = await ctx.dapp.ask(ctx.origin, 'eth_requestAccounts', {
    kind: 'connect',
    accounts: options,
    selected,
    chain: (await siteChain(ctx)).label,
  })
  if (!outcome.approved) return { error: outcome.error }
  const accounts = outcome.accounts ?? selected
  // The approval must land in the same session it was asked in.
  const now = await ctx.core.current()
  if (!now || now.record.organizationId !== session.record.organizationId) return { error: NOT_LOGGED_IN }
  const before = await readGrant(ctx.core.deps.local, ctx.origin)
  const grantedAt = before?.organizationId === session.record.organizationId ? before.grantedAt : ctx.core.now()
  await writeGrant(ctx.core.deps.local, ctx.origin, { accounts, organizationId: session.record.organizationId, grantedAt })
  ctx.dapp.emit(ctx.origin, 'accountsChanged', accounts)
  return { accounts }
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
