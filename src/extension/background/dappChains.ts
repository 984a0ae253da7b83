/**
 * The chains a dApp may select (`wallet_switchEthereumChain`, EIP-3326) and the persisted
 * selection (storage.local, versioned, parsed on read; style.md habit 9). Not secret.
 */
import { z } from 'zod'
import type { ChainLabel } from './approvalView'
import type { ChainState } from './state'
import type { StorageAreaLike } from './storageArea'

/** Allow-listed chains: Ethereum, Base, Sepolia. */
export const DAPP_CHAINS: readonly ChainLabel[] = [
  { chainId: '0x1', name: 'Ethereum' },
  { chainId: '0x2105', name: 'Base' },
  { chainId: '0xaa36a7', name: 'Sepolia' },
]

/** Storage key of the selected chain. */
export const CHAIN_KEY = 'sigil.chain'

const Stored = z.object({ v: z.literal(1), chainId: z.string() })

/** Canonical lowercase hex chain id for a quantity (`0x…`), or null. */
export function normalizeChainId(q: string): `0x${string}` | null {
  if (!/^0x[0-9a-fA-F]{1,16}$/.test(q)) return null
  return `0x${BigInt(q).toString(16)}`
}

/** The allow-listed chain with this id, or undefined. */
export function dappChain(chainId: string): ChainLabel | undefined {
  const id = normalizeChainId(chainId)
  return id === null ? undefined : DAPP_CHAINS.find((c) => c.chainId === id)
}

/** A chain label for display (falls back to the id for chains outside the list). */
export function chainLabel(chain: ChainState): ChainLabel {
  return dappChain(chain.chainId) ?? { chainId: chain.chainId, name: `Chain ${BigInt(chain.chainId).toString(10)}` }
}

/** The stored selection when it is readable and allow-listed; otherwise undefined. */
export async function loadSelectedChain(area: StorageAreaLike): Promise<`0x${string}` | undefined> {
  const parsed = Stored.safeParse((await area.get(CHAIN_KEY))[CHAIN_KEY])
  return parsed.success ? dappChain(parsed.data.chainId)?.chainId : undefined
}

/** Persist the selection. */
export async function saveSelectedChain(area: StorageAreaLike, chainId: `0x${string}`): Promise<void> {
  await area.set({ [CHAIN_KEY]: { v: 1, chainId } })
}
