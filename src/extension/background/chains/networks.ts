/**
 * The networks the wallet works with: the list the
 * pinned service publishes in its signed identity (service/trust.ts), so nobody on the way can
 * add or redirect an RPC; for the hosted service, which publishes none, a built-in list.
 */
import type { NetworkInfo } from '../../../api/serviceIdentity'
import type { Core } from '../core'

export type { NetworkInfo }

/** Used when the service publishes no networks (the hosted service). */
export const BUILT_IN_NETWORKS: readonly NetworkInfo[] = [
  {
    caip2: 'eip155:1',
    family: 'evm',
    name: 'Ethereum',
    rpcUrl: 'https://ethereum-rpc.publicnode.com',
    nativeSymbol: 'ETH',
    nativeDecimals: 18,
    dev: false,
    tokens: [],
  },
  {
    caip2: 'eip155:8453',
    family: 'evm',
    name: 'Base',
    rpcUrl: 'https://base-rpc.publicnode.com',
    nativeSymbol: 'ETH',
    nativeDecimals: 18,
    dev: false,
    tokens: [],
  },
  {
    caip2: 'eip155:11155111',
    family: 'evm',
    name: 'Sepolia',
    rpcUrl: 'https://ethereum-sepolia-rpc.publicnode.com',
    nativeSymbol: 'ETH',
    nativeDecimals: 18,
    dev: false,
    tokens: [],
  },
]

/** The verified service's networks (the built-in list when it publishes none). */
export async function listNetworks(core: Core): Promise<NetworkInfo[]> {
  const { networks } = await core.service()
  return networks.length > 0 ? networks : [...BUILT_IN_NETWORKS]
}

/** `0x…` chain id of an EVM network (`eip155:<n>`), or null for another family. */
export function evmChainIdOf(n: Pick<NetworkInfo, 'caip2' | 'family'>): `0x${string}` | null {
  if (n.family !== 'evm') return null
  const m = /^eip155:(\d{1,20})$/.exec(n.caip2)
  return m?.[1] ? `0x${BigInt(m[1]).toString(16)}` : null
}

/** The EVM network with this `0x…` chain id, or undefined. */
export function findEvmNetwork(networks: readonly NetworkInfo[], chainIdHex: string): NetworkInfo | undefined {
  let id: bigint
  try {
    id = BigInt(chainIdHex)
  } catch {
    return undefined
  }
  return networks.find((n) => evmChainIdOf(n) === `0x${id.toString(16)}`)
}
