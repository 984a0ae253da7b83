/**
 * The "Connected sites" screen: the origins the logged-in organization granted, each with its
 * Ethereum accounts (the active one first) and chain and its Solana accounts, by name. From there
 * the user changes a site's accounts (switch the active one, add or remove one of their own) and
 * disconnects a site's Ethereum grant, its Solana grant or both. Each change is what the site
 * would hear from its own wallet: `accountsChanged` with the new order (EVM), the Wallet Standard
 * `change` (Solana, through `solanaAccountsChanged`); `[]` on disconnect. Changing a site's
 * accounts rejects that site's pending requests: they were asked for the accounts it had.
 */
import type { SigilClient } from '../../../api/client'
import { RPC_ERROR, rpcError } from '../../protocol/rpcErrors'
import type { AccountOption, ChainLabel } from '../../protocol/approvalView'
import type { ActiveSession, Core } from '../core'
import { ExtensionError, isSessionKeyRejected } from '../failures'
import type { BackgroundState } from '../state'
import { siteChain } from './evm/chains'
import { allGrants, readGrant, removeGrant, writeGrant } from './evm/permissions'
import type { DappServices } from './services'
import { addressKey, labelled, optionsOf, sessionAccounts, type SiteFamily } from './siteAccounts'
import { SOLANA_ACCOUNTS_EVENT, solanaWire } from './solana/accounts'
import { allSolanaGrants, readSolanaGrant, removeSolanaGrant, writeSolanaGrant } from './solana/permissions'

/** 4001 for a site's requests cancelled because the user changed its accounts. */
export const ACCOUNTS_CHANGED = rpcError(RPC_ERROR.USER_REJECTED, 'User rejected the request (the accounts changed)')

/** One connected site as the popup shows it: its Ethereum grant and its Solana grant (null when none). */
export type ConnectedSite = {
  origin: string
  evm: { accounts: AccountOption[]; chain: ChainLabel; grantedAt: number } | null
  solana: { accounts: AccountOption[]; grantedAt: number } | null
}

/** The sites and the user's accounts that may be given to them, by family. */
export type ConnectedSites = { sites: ConnectedSite[]; choices: Record<SiteFamily, AccountOption[]> }

const newest = (s: ConnectedSite) => Math.max(s.evm?.grantedAt ?? 0, s.solana?.grantedAt ?? 0)

/** Sites granted to the session's organization (either family), newest grant first. */
export async function connectedSites(
  core: Core,
  state: BackgroundState,
  client: SigilClient,
  session: ActiveSession,
): Promise<ConnectedSites> {
  const { organizationId } = session.record
  // Names are labels: when the service cannot list the accounts, the sites still show (by address) and can be disconnected.
  const accounts = await sessionAccounts(client, session, core.deps.local).catch((err: unknown) => {
    if (isSessionKeyRejected(err) || err instanceof ExtensionError) throw err
    return []
  })
  const evm = Object.entries(await allGrants(core.deps.local)).filter(([, g]) => g.organizationId === organizationId)
  const solana = Object.entries(await allSolanaGrants(core.deps.local)).filter(([, g]) => g.organizationId === organizationId)
  const origins = [...new Set([...evm.map(([o]) => o), ...solana.map(([o]) => o)])]
  const sites = await Promise.all(
    origins.map(async (origin): Promise<ConnectedSite> => {
      const e = evm.find(([o]) => o === origin)?.[1]
      const s = solana.find(([o]) => o === origin)?.[1]
      return {
        origin,
        evm: e
          ? { accounts: labelled(accounts, e.accounts), chain: (await siteChain({ origin, core, state })).label, grantedAt: e.grantedAt }
          : null,
        solana: s ? { accounts: labelled(accounts, s.accounts), grantedAt: s.grantedAt } : null,
      }
    }),
  )
  return {
    sites: sites.sort((a, b) => newest(b) - newest(a)),
    choices: { evm: optionsOf(accounts, 'evm'), solana: optionsOf(accounts, 'solana') },
  }
}

/**
 * Revoke `origin`'s grants of the session organization (`family`, or both when absent) and tell
 * its tabs; `disconnected` is false when it had none.
 */
export async function disconnectSite(
  core: Core,
  dapp: DappServices | undefined,
  organizationId: string,
  origin: string,
  family?: SiteFamily,
): Promise<{ disconnected: boolean }> {
  let disconnected = false
  if (family !== 'solana') {
    const grant = await readGrant(core.deps.local, origin)
    if (grant?.organizationId === organizationId && (await removeGrant(core.deps.local, origin))) {
      disconnected = true
      dapp?.emit(origin, 'accountsChanged', [])
    }
  }
  if (family !== 'evm') {
    const grant = await readSolanaGrant(core.deps.local, origin)
    if (grant?.organizationId === organizationId && (await removeSolanaGrant(core.deps.local, origin))) {
      disconnected = true
      dapp?.emit(origin, SOLANA_ACCOUNTS_EVENT, [])
    }
  }
  return { disconnected }
}

const refuse = (field: string, message: string) => new ExtensionError('INVALID_ARGUMENT', `${field}: ${message}`, field)

/**
 * Give connected `origin` these accounts of `family` (in order; for EVM the first is the active
 * one): only the user's own visible accounts of that family, each once, at least one. The site's
 * pending requests are rejected and its tabs told the new accounts. The user is in our popup, so
 * nothing is asked of the site; a site not connected for `family` is refused (connecting is the site's to ask).
 */
export async function setSiteAccounts(
  core: Core,
  state: BackgroundState,
  dapp: DappServices | undefined,
  client: SigilClient,
  session: ActiveSession,
  p: { origin: string; family: SiteFamily; accounts: string[] },
): Promise<{ accounts: AccountOption[] }> {
  const { organizationId } = session.record
  const grant = p.family === 'evm' ? await readGrant(core.deps.local, p.origin) : await readSolanaGrant(core.deps.local, p.origin)
  if (!grant || grant.organizationId !== organizationId) throw refuse('origin', `${p.origin} is not connected`)
  if (p.accounts.length === 0) throw refuse('accounts', 'choose at least one account')
  const all = await sessionAccounts(client, session, core.deps.local)
  const offered = new Map(optionsOf(all, p.family).map((o) => [addressKey(p.family, o.address), o.address]))
  const chosen: string[] = []
  for (const address of p.accounts) {
    const mine = offered.get(addressKey(p.family, address))
    if (mine === undefined) throw refuse('accounts', `${address} is not one of your ${p.family === 'evm' ? 'Ethereum' : 'Solana'} accounts`)
    if (chosen.includes(mine)) throw refuse('accounts', `${address} is chosen twice`)
    chosen.push(mine)
  }
  const next = { accounts: chosen, organizationId, grantedAt: grant.grantedAt }
  if (p.family === 'evm') await writeGrant(core.deps.local, p.origin, next)
  else await writeSolanaGrant(core.deps.local, p.origin, next)
  state.approvals.rejectFor(p.origin, ACCOUNTS_CHANGED)
  if (p.family === 'evm') dapp?.emit(p.origin, 'accountsChanged', chosen)
  else dapp?.emit(p.origin, SOLANA_ACCOUNTS_EVENT, solanaWire(chosen))
  return { accounts: labelled(all, chosen) }
}
