/**
 * Networks by CAIP-2 id (`eip155:<chainId>`, `solana:<first 32 chars of the genesis hash>`):
 * the one registry the service, the faucet and (later) the extension read. The defaults are the
 * dev chains `npm start` runs; `SIGIL_RPC` adds networks or points known ones elsewhere.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { base58 } from '@scure/base'

export type NetworkFamily = 'evm' | 'solana'

export type Network = {
  caip2: string
  family: NetworkFamily
  name: string
  rpcUrl: string
  nativeSymbol: string
  nativeDecimals: number
  /** A development chain: the dev faucet may fund addresses on it. */
  dev: boolean
}

/** The EVM dev chain's id (anvil/Hardhat default). */
export const DEV_EVM_CHAIN_ID = 31337
/** The Solana dev runtime's genesis hash: fixed, so its CAIP-2 id is stable across restarts. */
export const DEV_SOLANA_GENESIS_HASH = base58.encode(sha256(new TextEncoder().encode('sigil solana dev runtime v1')))
export const DEV_EVM_CAIP2 = `eip155:${DEV_EVM_CHAIN_ID}`
export const DEV_SOLANA_CAIP2 = `solana:${DEV_SOLANA_GENESIS_HASH.slice(0, 32)}`

/** The dev chains at their default addresses. */
export const DEV_NETWORKS: readonly Network[] = [
  {
    caip2: DEV_EVM_CAIP2,
    family: 'evm',
    name: 'Sigil dev EVM',
    rpcUrl: 'http://127.0.0.1:8545',
    nativeSymbol: 'ETH',
    nativeDecimals: 18,
    dev: true,
  },
  {
    caip2: DEV_SOLANA_CAIP2,
    family: 'solana',
    name: 'Sigil dev Solana',
    rpcUrl: 'http://127.0.0.1:8899',
    nativeSymbol: 'SOL',
    nativeDecimals: 9,
    dev: true,
  },
]

/** Names of well-known networks, for ids `SIGIL_RPC` adds without saying more. */
const KNOWN: Record<string, Pick<Network, 'name' | 'nativeSymbol'>> = {
  'eip155:1': { name: 'Ethereum', nativeSymbol: 'ETH' },
  'eip155:11155111': { name: 'Sepolia', nativeSymbol: 'ETH' },
  'eip155:17000': { name: 'Holesky', nativeSymbol: 'ETH' },
  'eip155:8453': { name: 'Base', nativeSymbol: 'ETH' },
  'eip155:84532': { name: 'Base Sepolia', nativeSymbol: 'ETH' },
  'eip155:10': { name: 'OP Mainnet', nativeSymbol: 'ETH' },
  'eip155:42161': { name: 'Arbitrum One', nativeSymbol: 'ETH' },
  'eip155:137': { name: 'Polygon', nativeSymbol: 'POL' },
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': { name: 'Solana', nativeSymbol: 'SOL' },
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': { name: 'Solana Devnet', nativeSymbol: 'SOL' },
  'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': { name: 'Solana Testnet', nativeSymbol: 'SOL' },
}

const CAIP2 = /^(eip155:[1-9][0-9]{0,19}|solana:[1-9A-HJ-NP-Za-km-z]{32})$/

/** Whether `id` is a CAIP-2 id of a family Sigil knows. */
export function isCaip2(id: string): boolean {
  return CAIP2.test(id)
}

/**
 * The networks: the dev chains, then each `caip2=url` entry of `spec` (comma separated), which
 * replaces the RPC URL of a known id or adds a network. Throws a message naming the bad entry.
 */
export function resolveNetworks(spec: string | undefined): Network[] {
  const networks = new Map(DEV_NETWORKS.map((n) => [n.caip2, { ...n }]))
  for (const entry of (spec ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = entry.indexOf('=')
    const caip2 = eq > 0 ? entry.slice(0, eq).trim() : ''
    const url = eq > 0 ? entry.slice(eq + 1).trim() : ''
    if (!isCaip2(caip2))
      throw new Error(`SIGIL_RPC: "${entry}" does not start with a CAIP-2 id (eip155:<chainId> or solana:<genesis prefix>)`)
    if (!/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)) throw new Error(`SIGIL_RPC: "${caip2}" needs an http(s) URL after "="`)
    const existing = networks.get(caip2)
    if (existing) {
      existing.rpcUrl = url
      continue
    }
    const family: NetworkFamily = caip2.startsWith('eip155:') ? 'evm' : 'solana'
    const known = KNOWN[caip2]
    networks.set(caip2, {
      caip2,
      family,
      name: known?.name ?? (family === 'evm' ? `EVM chain ${caip2.slice(7)}` : `Solana ${caip2.slice(7, 15)}`),
      rpcUrl: url,
      nativeSymbol: known?.nativeSymbol ?? (family === 'evm' ? 'ETH' : 'SOL'),
      nativeDecimals: family === 'evm' ? 18 : 9,
      dev: false,
    })
  }
  return [...networks.values()]
}

/** Human-readable Solana aliases the hosted service accepts, and the CAIP-2 ids they stand for. */
const SOLANA_ALIASES: Record<string, string> = {
  'solana:mainnet': 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  'solana:devnet': 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  'solana:testnet': 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
}

/** The canonical CAIP-2 id of `id` (resolves the Solana aliases). */
export function normalizeCaip2(id: string): string {
  return Object.hasOwn(SOLANA_ALIASES, id) ? (SOLANA_ALIASES[id] as string) : id
}

/** The CAIP-19 id of a network's native asset (SLIP-44 coin type 60 for EVM chains, 501 for Solana). */
export function nativeAssetId(network: Network): string {
  return `${network.caip2}/slip44:${network.family === 'evm' ? 60 : 501}`
}

/** The EVM chain id of an `eip155:` network. */
export function evmChainId(network: Network): number {
  return Number(network.caip2.slice('eip155:'.length))
}
