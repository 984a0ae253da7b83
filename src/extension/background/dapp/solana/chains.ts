/**
 * The Solana chains Sigil offers through the Wallet Standard: the configured networks of family
 * 'solana' (chains/networks.ts). A network whose genesis prefix is a public cluster gets the standard's
 * id (`solana:mainnet`, `solana:devnet`, `solana:testnet`); a dev network (the Solana dev runtime)
 * is `solana:localnet`; anything else keeps its CAIP-2 id. Requests may name a chain either way.
 */
import type { Core } from '../../core'
import { listNetworks, type NetworkInfo } from '../../chains/networks'

/** Wallet Standard ids of the public clusters, by CAIP-2 id (genesis hash prefix). */
const CLUSTERS: Record<string, string> = {
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'solana:mainnet',
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': 'solana:devnet',
  'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': 'solana:testnet',
}

/** The Wallet Standard id used for dev networks. */
export const LOCALNET = 'solana:localnet'

/** One chain as offered to dApps: its Wallet Standard id, the CAIP-2 id the service knows, and a name. */
export type SolanaChain = { id: string; caip2: string; name: string }

/** The Solana chains of `networks`, in order; a second dev network keeps its CAIP-2 id. */
export function solanaChainsOf(networks: readonly NetworkInfo[]): SolanaChain[] {
  const out: SolanaChain[] = []
  for (const n of networks) {
    if (n.family !== 'solana') continue
    let id = Object.hasOwn(CLUSTERS, n.caip2) ? (CLUSTERS[n.caip2] as string) : n.dev ? LOCALNET : n.caip2
    if (out.some((c) => c.id === id)) id = n.caip2
    out.push({ id, caip2: n.caip2, name: n.name })
  }
  return out
}

/** The configured Solana chains (none when the service cannot be verified). */
export async function solanaChains(core: Core): Promise<SolanaChain[]> {
  try {
    return solanaChainsOf(await listNetworks(core))
  } catch {
    return []
  }
}

/** The chain a request names, by Wallet Standard id or CAIP-2 id; undefined when not offered. */
export function findSolanaChain(chains: readonly SolanaChain[], id: string): SolanaChain | undefined {
  return chains.find((c) => c.id === id || c.caip2 === id)
}
