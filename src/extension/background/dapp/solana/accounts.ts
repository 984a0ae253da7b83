/**
 * Connecting a Solana dApp (Wallet Standard `standard:connect` / `standard:disconnect`): the user
 * chooses in our window which of their Solana accounts the requesting origin (taken by the router
 * from the browser's `sender`) may use, one or several. The accounts an origin sees are the
 * grant's while the granting organization's session is live (locked → none).
 */
import { base58, base64 } from '@scure/base'
import { RPC_ERROR, rpcError, type RpcErrorObject } from '../../../protocol/rpcErrors'
import { failureOutcome, NOT_LOGGED_IN, sessionOrLogin } from '../session'
import { optionsOf, sessionAccounts } from '../siteAccounts'
import type { DappContext } from '../../methods'
import { solanaChains } from './chains'
import { readSolanaGrant, removeSolanaGrant, writeSolanaGrant } from './permissions'

/** A Wallet Standard account as sent to the page: the base58 address and its 32-byte public key (base64). */
export type SolanaAccountWire = { address: string; publicKey: string }

/** The page event that carries an origin's Solana accounts (pushed on connect, disconnect and wipe). */
export const SOLANA_ACCOUNTS_EVENT = 'solanaAccountsChanged'

/** The wire form of `address`, or null when it is not a 32-byte base58 key. */
export function solanaAccount(address: string): SolanaAccountWire | null {
  let key: Uint8Array
  try {
    key = base58.decode(address)
  } catch {
    return null
  }
  return key.length === 32 ? { address, publicKey: base64.encode(key) } : null
}

/** The wire form of granted `addresses` (malformed ones left out). */
export function solanaWire(addresses: readonly string[]): SolanaAccountWire[] {
  return addresses.map(solanaAccount).filter((a): a is SolanaAccountWire => a !== null)
}

/** The Solana accounts `origin` may use now: the granted ones while their organization is logged in; else none. */
export async function solanaAccountsFor({ origin, core }: Pick<DappContext, 'origin' | 'core'>): Promise<SolanaAccountWire[]> {
  const session = await core.current()
  if (!session) return []
  const grant = await readSolanaGrant(core.deps.local, origin)
  if (!grant || grant.organizationId !== session.record.organizationId) return []
  return solanaWire(grant.accounts)
}

/**
 * `standard:connect`: the granted accounts, else (unless `silent`) ask the user in our window.
 * Silent connect never opens a window: not connected → no accounts.
 */
export async function connectSolana(
  ctx: DappContext,
  silent: boolean,
): Promise<{ accounts: SolanaAccountWire[] } | { error: RpcErrorObject }> {
  if (silent && !(await ctx.core.current())) return { accounts: [] }
  const session = await sessionOrLogin(ctx)
  if ('error' in session) return session
  const existing = await solanaAccountsFor(ctx)
  if (existing.length > 0 || silent) return { accounts: existing }
  let options
  try {
    options = optionsOf(await ctx.core.withSession((client, s) => sessionAccounts(client, s, ctx.core.deps.local)), 'solana')
  } catch (err) {
    return failureOutcome(err)
  }
  const first = options[0]
  if (first === undefined) return { error: rpcError(RPC_ERROR.UNAUTHORIZED, 'Unauthorized: this wallet has no Solana account') }
  const networks = (await solanaChains(ctx.core)).map((c) => `${c.name} (${c.id})`)
  const selected = [first.address]
  const outcome = await ctx.dapp.ask(ctx.origin, 'standard:connect', { kind: 'solanaConnect', accounts: options, selected, networks })
  if (!outcome.approved) return { error: outcome.error }
  const chosen = outcome.accounts ?? selected
  // The approval must land in the same session it was asked in.
  const now = await ctx.core.current()
  if (!now || now.record.organizationId !== session.record.organizationId) return { error: NOT_LOGGED_IN }
  await writeSolanaGrant(ctx.core.deps.local, ctx.origin, {
    accounts: chosen,
    organizationId: session.record.organizationId,
    grantedAt: ctx.core.now(),
  })
  const accounts = solanaWire(chosen)
  ctx.dapp.emit(ctx.origin, SOLANA_ACCOUNTS_EVENT, accounts)
  return { accounts }
}

/** `standard:disconnect`: forget the origin's Solana grant and tell its tabs. */
export async function disconnectSolana(ctx: DappContext): Promise<void> {
  if (await removeSolanaGrant(ctx.core.deps.local, ctx.origin)) ctx.dapp.emit(ctx.origin, SOLANA_ACCOUNTS_EVENT, [])
}
