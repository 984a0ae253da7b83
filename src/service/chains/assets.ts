/**
 * Assets on the configured networks and balances read from their nodes: each network's native
 * asset (ERC-20 and SPL tokens from configuration come with the send work of issue 11).
 */
import { fieldError } from '../../api/errors.js'
import type { AssetBalance } from '../../api/operations/get_wallet_address_balances.js'
import type { AssetMetadata } from '../../api/operations/list_supported_assets.js'
import { type Network, nativeAssetId, normalizeCaip2 } from '../../chains/networks.js'
import { jsonRpc } from './rpc.js'

/** The configured network `caip2` names (aliases resolved), or a 400 naming `field`. */
export function requireNetwork(networks: readonly Network[], caip2: string, field: string): Network {
  const id = normalizeCaip2(caip2)
  const network = networks.find((n) => n.caip2 === id)
  if (!network)
    throw fieldError(
      'INVALID_ARGUMENT',
      field,
      `unknown network ${JSON.stringify(caip2)}; configured: ${networks.map((n) => n.caip2).join(', ')}`,
    )
  return network
}

export function nativeAsset(network: Network): Required<Pick<AssetMetadata, 'caip19' | 'symbol' | 'decimals' | 'name'>> {
  return {
    caip19: nativeAssetId(network),
    symbol: network.nativeSymbol,
    decimals: network.nativeDecimals,
    name:
      network.family === 'evm'
        ? `${network.name} ${network.nativeSymbol}`
        : network.nativeSymbol === 'SOL'
          ? 'Solana'
          : network.nativeSymbol,
  }
}

/** The assets of a network: its native asset. */
export function supportedAssets(network: Network): AssetMetadata[] {
  return [{ ...nativeAsset(network), stable: false }]
}

/** The native balance of `address` on `network`, in atomic units. */
export async function nativeBalance(network: Network, address: string): Promise<bigint> {
  if (network.family === 'evm') return BigInt(await jsonRpc<string>(network, 'eth_getBalance', [address, 'latest']))
  const { value } = await jsonRpc<{ value: number }>(network, 'getBalance', [address, { commitment: 'confirmed' }])
  return BigInt(value)
}

/** Balances of `address` on `network`, with display values. */
export async function balancesOf(network: Network, address: string): Promise<AssetBalance[]> {
  const asset = nativeAsset(network)
  const balance = await nativeBalance(network, address)
  return [{ ...asset, balance: balance.toString(), display: { crypto: formatUnits(balance, network.nativeDecimals) } }]
}

/** Atomic units as a decimal string of whole units, trailing zeros dropped ("1.5", "0", "0.000001"). */
export function formatUnits(value: bigint, decimals: number): string {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}
