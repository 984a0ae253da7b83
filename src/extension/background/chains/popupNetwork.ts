/**
 * The popup's selected network: one of the pinned
 * service's networks (networks.ts), persisted in `storage.local` as a versioned record parsed on
 * read (style.md habit 9). Not secret. A stored network the service no longer lists falls back to
 * the first one. Separate from the per-site EVM chain a dApp selects (dapp/evm/chains.ts).
 */
import { z } from 'zod'
import type { Core } from '../core'
import { ExtensionError } from '../failures'
import { listNetworks, type NetworkInfo } from './networks'

/** Storage key of the popup's selected network. */
export const POPUP_NETWORK_KEY = 'sigil.popupNetwork'

/** Version of the stored record. */
export const POPUP_NETWORK_VERSION = 1

const Stored = z.object({ v: z.literal(POPUP_NETWORK_VERSION), caip2: z.string().max(128) })

/** The networks and the selected one, as the popup shows them. */
export type NetworksView = { networks: NetworkInfo[]; selected: NetworkInfo }

/** The service's networks and the popup's selection (the first network when none valid is stored). */
export async function popupNetworks(core: Core): Promise<NetworksView> {
  const networks = await listNetworks(core)
  const first = networks[0]
  if (!first) throw new ExtensionError('REQUEST_FAILED', 'The service lists no networks.')
  const parsed = Stored.safeParse((await core.deps.local.get(POPUP_NETWORK_KEY))[POPUP_NETWORK_KEY])
  const selected = (parsed.success && networks.find((n) => n.caip2 === parsed.data.caip2)) || first
  return { networks, selected }
}

/** Select a network the service lists; INVALID_ARGUMENT for any other. */
export async function selectPopupNetwork(core: Core, p: { caip2: string }): Promise<NetworksView> {
  const networks = await listNetworks(core)
  const selected = networks.find((n) => n.caip2 === p.caip2)
  if (!selected) throw new ExtensionError('INVALID_ARGUMENT', `caip2: ${p.caip2} is not one of the service's networks`)
  await core.deps.local.set({ [POPUP_NETWORK_KEY]: { v: POPUP_NETWORK_VERSION, caip2: selected.caip2 } })
  return { networks, selected }
}

/**
 * The service's network `caip2` (with `token` among its tokens, when given), or INVALID_ARGUMENT
 * naming it. A network or token missing from the cached list makes the wallet ask the service
 * again before refusing: the operator may have added it since the list was read, and the
 * extension's worker is not restarted for that.
 */
export async function requirePopupNetwork(core: Core, caip2: string, token?: string): Promise<NetworkInfo> {
  const has = (n: NetworkInfo) => token === undefined || n.tokens.some((t) => sameAddress(n, t.address, token))
  let network = (await listNetworks(core)).find((n) => n.caip2 === caip2)
  if (!network || !has(network)) {
    core.forgetService()
    network = (await listNetworks(core)).find((n) => n.caip2 === caip2) ?? network
  }
  if (!network) throw new ExtensionError('INVALID_ARGUMENT', `caip2: ${caip2} is not one of the service's networks`)
  return network
}

/** Token addresses compare case-blind on EVM (hex), exactly on Solana (base58). */
function sameAddress(n: Pick<NetworkInfo, 'family'>, a: string, b: string): boolean {
  return n.family === 'evm' ? a.toLowerCase() === b.toLowerCase() : a === b
}
