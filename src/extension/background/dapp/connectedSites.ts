/**
 * The "Connected sites" screen: the origins the logged-in account granted, with
 * the account and the site's active chain, and Disconnect, which does what the site's own
 * `wallet_revokePermissions` does (dapp/evm/accounts.ts `revoke`): drop the grant, tell its tabs
 * `accountsChanged []`.
 */
import type { Core } from '../core'
import type { ChainLabel } from '../../protocol/approvalView'
import { siteChain } from './evm/chains'
import type { DappServices } from './services'
import { allGrants, readGrant, removeGrant } from './evm/permissions'
import type { BackgroundState } from '../state'

/** One connected site as the popup shows it. */
export type ConnectedSite = { origin: string; accounts: string[]; chain: ChainLabel; grantedAt: number }

/** Sites granted to the session's organization, newest grant first. */
export async function connectedSites(core: Core, state: BackgroundState, organizationId: string): Promise<{ sites: ConnectedSite[] }> {
  const grants = Object.entries(await allGrants(core.deps.local)).filter(([, g]) => g.organizationId === organizationId)
  const sites = await Promise.all(
    grants.map(async ([origin, g]) => ({
      origin,
      accounts: [g.address],
      chain: (await siteChain({ origin, core, state })).label,
      grantedAt: g.grantedAt,
    })),
  )
  return { sites: sites.sort((a, b) => b.grantedAt - a.grantedAt) }
}

/** Revoke `origin`'s grant (the session organization's only) and tell its tabs; false when it had none. */
export async function disconnectSite(
  core: Core,
  dapp: DappServices | undefined,
  organizationId: string,
  origin: string,
): Promise<{ disconnected: boolean }> {
  const grant = await readGrant(core.deps.local, origin)
  const disconnected = grant?.organizationId === organizationId && (await removeGrant(core.deps.local, origin))
  if (disconnected) dapp?.emit(origin, 'accountsChanged', [])
  return { disconnected }
}
