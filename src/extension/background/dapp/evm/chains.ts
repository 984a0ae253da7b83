/**
 * The EVM chains a dApp may use: the pinned service's signed network list
 * (chains/networks.ts), plus the networks the user added through `wallet_addEthereumChain`. Each site
 * (origin) has its own active chain; both records live in the persistent area, versioned and
 * parsed on read (style.md habit 9). Not secret.
 */
import { z } from 'zod'
import type { ChainLabel } from '../../../protocol/approvalView'
import type { Core } from '../../core'
import type { DappContext } from '../../methods'
import { evmChainIdOf, listNetworks } from '../../chains/networks'
import type { StorageAreaLike } from '../../storage/storageArea'

/** Storage key of the per-site chain selection. */
export const CHAIN_KEY = 'sigil.chain'
/** Storage key of the networks the user added (`wallet_addEthereumChain`). */
export const ADDED_CHAINS_KEY = 'sigil.addedChains'

/** An EVM network a dApp can be on. */
export type DappNetwork = ChainLabel & {
  caip2: string
  rpcUrl: string
  nativeSymbol: string
  nativeDecimals: number
  /** Added by the user (not in the service's list): the service cannot send on it. */
  added: boolean
  /** The service's Gas Station (EIP-7702 batch executor) on this network, as its signed list names it. */
  gasStation?: string
}

/** A chain id as the wallet stores it: lowercase hex, no leading zeros. */
const ChainId = z.string().regex(/^0x(0|[1-9a-f][0-9a-f]{0,15})$/)

const SiteChains = z.object({ v: z.literal(2), sites: z.record(z.string(), ChainId) })

/** One user-added network (version 1 of the record). */
export const AddedChain = z.object({
  chainId: ChainId,
  name: z.string().min(1).max(64),
  rpcUrl: z.string().url().max(2048),
  nativeSymbol: z.string().min(1).max(11),
  nativeDecimals: z.number().int().min(0).max(36),
  addedAt: z.number().int(),
})
export type AddedChain = z.infer<typeof AddedChain>
const AddedChains = z.object({ v: z.literal(1), chains: z.array(AddedChain).max(64) })

/** Canonical lowercase hex chain id for a quantity (`0x…`), or null. */
export function normalizeChainId(q: string): `0x${string}` | null {
  if (!/^0x[0-9a-fA-F]{1,16}$/.test(q)) return null
  return `0x${BigInt(q).toString(16)}`
}

/** The user-added networks (empty when none or unreadable). */
export async function loadAddedChains(area: StorageAreaLike): Promise<AddedChain[]> {
  const parsed = AddedChains.safeParse((await area.get(ADDED_CHAINS_KEY))[ADDED_CHAINS_KEY])
  return parsed.success ? parsed.data.chains : []
}

/** Append a user-added network. */
export async function saveAddedChain(area: StorageAreaLike, chain: AddedChain): Promise<void> {
  const chains = (await loadAddedChains(area)).filter((c) => c.chainId !== chain.chainId)
  await area.set({ [ADDED_CHAINS_KEY]: { v: 1, chains: [...chains, chain] } })
}

/** The service's EVM networks, then the user's (a chain id the service knows is never taken from the user's list). */
export async function dappNetworks(core: Core): Promise<DappNetwork[]> {
  const out: DappNetwork[] = []
  for (const n of await listNetworks(core)) {
    const chainId = evmChainIdOf(n)
    if (chainId === null || out.some((o) => o.chainId === chainId)) continue
    out.push({
      chainId,
      name: n.name,
      caip2: n.caip2,
      rpcUrl: n.rpcUrl,
      nativeSymbol: n.nativeSymbol,
      nativeDecimals: n.nativeDecimals,
      added: false,
      ...(n.gasStation !== undefined ? { gasStation: n.gasStation } : {}),
    })
  }
  for (const c of await loadAddedChains(core.deps.local)) {
    if (out.some((o) => o.chainId === c.chainId)) continue
    const { addedAt: _, ...rest } = c
    out.push({ ...rest, chainId: c.chainId as `0x${string}`, caip2: `eip155:${BigInt(c.chainId)}`, added: true })
  }
  return out
}

/** The networks, or [] when the service cannot be reached (reads that must not fail). */
async function networksOrNone(core: Core): Promise<DappNetwork[]> {
  try {
    return await dappNetworks(core)
  } catch {
    return []
  }
}

async function loadSites(area: StorageAreaLike): Promise<Record<string, string>> {
  const parsed = SiteChains.safeParse((await area.get(CHAIN_KEY))[CHAIN_KEY])
  return parsed.success ? parsed.data.sites : {}
}

/** Persist `origin`'s active chain. */
export async function saveSiteChain(area: StorageAreaLike, origin: string, chainId: `0x${string}`): Promise<void> {
  const sites = await loadSites(area)
  await area.set({ [CHAIN_KEY]: { v: 2, sites: { ...sites, [origin]: chainId } } })
}

/** A site's active chain: its label and, when the wallet knows it, its network (RPC, native asset). */
export type SiteChain = { label: ChainLabel; network: DappNetwork | undefined }

/**
 * `origin`'s active chain: its stored choice when still known, else the first EVM network of the
 * list; without any list (service unreachable), the stored choice or the background default.
 */
export async function siteChain(ctx: Pick<DappContext, 'origin' | 'core' | 'state'>): Promise<SiteChain> {
  const [networks, sites] = await Promise.all([networksOrNone(ctx.core), loadSites(ctx.core.deps.local)])
  const stored = sites[ctx.origin]
  const network = networks.find((n) => n.chainId === stored) ?? networks[0]
  if (network) return { label: { chainId: network.chainId, name: network.name }, network }
  const chainId = (stored ?? ctx.state.chain.chainId) as `0x${string}`
  return { label: { chainId, name: `Chain ${BigInt(chainId).toString(10)}` }, network: undefined }
}

/** The known network with this chain id (any hex spelling), or undefined. */
export async function findDappNetwork(core: Core, chainId: string): Promise<DappNetwork | undefined> {
  const id = normalizeChainId(chainId)
  return id === null ? undefined : (await dappNetworks(core)).find((n) => n.chainId === id)
}
