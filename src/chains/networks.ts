/**
 * Networks by CAIP-2 id (`eip155:<chainId>`, `solana:<first 32 chars of the genesis hash>`):
 * the one registry the service, the faucet and (later) the extension read. The defaults are the
 * dev chains `npm start` runs; `SIGIL_RPC` adds networks or points known ones elsewhere, and
 * `SIGIL_TOKENS` adds ERC-20 tokens to EVM networks and SPL tokens to Solana networks; `SIGIL_GAS_STATION` and `SIGIL_NATIVE_USD`
 * set the Gas Station (sponsored, batched sends) of EVM networks.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { base58 } from '@scure/base'
import { DEV_GAS_STATION } from './gasStation/dev.js'

export type NetworkFamily = 'evm' | 'solana'

/** A token configured on a network (`SIGIL_TOKENS`): an ERC-20 on EVM, an SPL Token mint on Solana. */
export type Erc20Token = {
  /** EVM: the contract address, lowercase `0x` + 40 hex. Solana: the mint's base58 address. */
  address: string
  symbol: string
  decimals: number
  name: string
  /** A stablecoin (list_supported_assets `stable`). */
  stable: boolean
}

export type Network = {
  caip2: string
  family: NetworkFamily
  name: string
  rpcUrl: string
  nativeSymbol: string
  nativeDecimals: number
  /** A development chain: the dev faucet may fund addresses on it. */
  dev: boolean
  /** Tokens configured on this network: ERC-20 contracts on EVM, SPL Token mints on Solana. */
  tokens: readonly Erc20Token[]
  /** The SigilBatchExecutor (Gas Station delegate) deployed on this EVM network, lowercase; absent: no batched or sponsored sends. */
  gasStation?: string
  /** The operator's USD price of one native coin (a positive decimal string), for sponsorship limits. */
  nativeUsd?: string
  /** The network's block explorer (http(s)): see {@link explorerTxUrl}; absent: no links. */
  explorerUrl?: string
}

/** The EVM dev chain's id (anvil/Hardhat default). */
export const DEV_EVM_CHAIN_ID = 31337
/** The Solana dev runtime's genesis hash: fixed, so its CAIP-2 id is stable across restarts. */
export const DEV_SOLANA_GENESIS_HASH = base58.encode(sha256(new TextEncoder().encode('sigil solana dev runtime v1')))
export const DEV_EVM_CAIP2 = `eip155:${DEV_EVM_CHAIN_ID}`
export const DEV_SOLANA_CAIP2 = `solana:${DEV_SOLANA_GENESIS_HASH.slice(0, 32)}`
/**
 * The Solana dev runtime's SPL token mint: the public key of the fixed dev keypair
 * (src/devchain/solana/tokens.ts makes the mint at start and checks it gives this address).
 */
export const DEV_SOLANA_MINT = 'CzDmKgiM1hvgg2Nh8NESwswZt5njtoSuHgLxgvWe4FB7'
export const DEV_SOLANA_MINT_DECIMALS = 6
/** The dev Solana network's token: the dev mint. */
export const DEV_SOLANA_TOKEN: Erc20Token = {
  address: DEV_SOLANA_MINT,
  symbol: 'USDC',
  decimals: DEV_SOLANA_MINT_DECIMALS,
  name: 'Dev USD Coin',
  stable: true,
}

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
    tokens: [],
    gasStation: DEV_GAS_STATION,
    nativeUsd: '2000',
  },
  {
    caip2: DEV_SOLANA_CAIP2,
    family: 'solana',
    name: 'Sigil dev Solana',
    rpcUrl: 'http://127.0.0.1:8899',
    nativeSymbol: 'SOL',
    nativeDecimals: 9,
    dev: true,
    tokens: [DEV_SOLANA_TOKEN],
  },
]

/** Names of well-known networks, for ids `SIGIL_RPC` adds without saying more. */
const KNOWN: Record<string, Pick<Network, 'name' | 'nativeSymbol'> & { explorerUrl: string }> = {
  'eip155:1': { name: 'Ethereum', nativeSymbol: 'ETH', explorerUrl: 'https://etherscan.io' },
  'eip155:11155111': { name: 'Sepolia', nativeSymbol: 'ETH', explorerUrl: 'https://sepolia.etherscan.io' },
  'eip155:17000': { name: 'Holesky', nativeSymbol: 'ETH', explorerUrl: 'https://holesky.etherscan.io' },
  'eip155:8453': { name: 'Base', nativeSymbol: 'ETH', explorerUrl: 'https://basescan.org' },
  'eip155:84532': { name: 'Base Sepolia', nativeSymbol: 'ETH', explorerUrl: 'https://sepolia.basescan.org' },
  'eip155:10': { name: 'OP Mainnet', nativeSymbol: 'ETH', explorerUrl: 'https://optimistic.etherscan.io' },
  'eip155:42161': { name: 'Arbitrum One', nativeSymbol: 'ETH', explorerUrl: 'https://arbiscan.io' },
  'eip155:137': { name: 'Polygon', nativeSymbol: 'POL', explorerUrl: 'https://polygonscan.com' },
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': { name: 'Solana', nativeSymbol: 'SOL', explorerUrl: 'https://explorer.solana.com' },
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': {
    name: 'Solana Devnet',
    nativeSymbol: 'SOL',
    explorerUrl: 'https://explorer.solana.com/tx/{tx}?cluster=devnet',
  },
  'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': {
    name: 'Solana Testnet',
    nativeSymbol: 'SOL',
    explorerUrl: 'https://explorer.solana.com/tx/{tx}?cluster=testnet',
  },
}

/**
 * The explorer page of transaction `tx` (hash or signature): `explorerUrl` with `{tx}` replaced, or
 * `<explorerUrl>/tx/<tx>` when it has no `{tx}`; undefined without an http(s) explorer.
 */
export function explorerTxUrl(explorerUrl: string | undefined, tx: string): string | undefined {
  if (explorerUrl === undefined || !/^https?:\/\//.test(explorerUrl)) return undefined
  const id = encodeURIComponent(tx)
  return explorerUrl.includes('{tx}') ? explorerUrl.replace('{tx}', id) : `${explorerUrl.replace(/\/+$/, '')}/tx/${id}`
}

const CAIP2 = /^(eip155:[1-9][0-9]{0,19}|solana:[1-9A-HJ-NP-Za-km-z]{32})$/

/** Whether `id` is a CAIP-2 id of a family Sigil knows. */
export function isCaip2(id: string): boolean {
  return CAIP2.test(id)
}

/** Settings of {@link resolveNetworks}: the `SIGIL_GAS_STATION`, `SIGIL_NATIVE_USD` and `SIGIL_EXPLORERS` texts. */
export type GasStationSpec = { gasStations?: string | undefined; nativeUsd?: string | undefined; explorers?: string | undefined }

/**
 * The networks: the dev chains, then each `caip2=url` entry of `spec` (comma separated), which
 * replaces the RPC URL of a known id or adds a network; then the ERC-20 tokens of `tokenSpec`
 * (see {@link parseTokens}); then the Gas Station addresses and native coin prices of `extra`
 * (see {@link applyGasStations}); then the block explorers of `extra.explorers` (`caip2=https://…`,
 * replacing a well-known network's default). Throws a message naming the bad entry.
 */
export function resolveNetworks(spec: string | undefined, tokenSpec?: string, extra: GasStationSpec = {}): Network[] {
  const networks = new Map(DEV_NETWORKS.map((n) => [n.caip2, { ...n }]))
  for (const { entry, caip2, value: url } of entries(spec)) {
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
      tokens: [],
      ...(known ? { explorerUrl: known.explorerUrl } : {}),
    })
  }
  for (const [caip2, token] of parseTokens(tokenSpec)) {
    const network = networks.get(caip2)
    if (!network) throw new Error(`SIGIL_TOKENS: ${caip2} is not a configured network (add it to SIGIL_RPC)`)
    if (network.tokens.some((t) => t.address === token.address))
      throw new Error(`SIGIL_TOKENS: ${token.address} is listed twice on ${caip2}`)
    network.tokens = [...network.tokens, token]
  }
  applyGasStations(networks, extra)
  const seen = new Set<string>()
  for (const { entry, caip2, value: url } of entries(extra.explorers)) {
    if (!isCaip2(caip2)) throw new Error(`SIGIL_EXPLORERS: "${entry}" does not start with a CAIP-2 id (format: caip2=https://…)`)
    const network = networks.get(caip2)
    if (!network) throw new Error(`SIGIL_EXPLORERS: ${caip2} is not a configured network (add it to SIGIL_RPC)`)
    if (seen.has(caip2)) throw new Error(`SIGIL_EXPLORERS: ${caip2} is listed twice`)
    seen.add(caip2)
    if (!/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url))
      throw new Error(`SIGIL_EXPLORERS: "${caip2}" needs an http(s) URL after "="`)
    network.explorerUrl = url
  }
  return [...networks.values()]
}

const USD_PRICE = /^(0|[1-9][0-9]{0,14})(\.[0-9]{1,18})?$/

/**
 * `SIGIL_GAS_STATION` (`caip2=0xaddress,…`: where SigilBatchExecutor is deployed) and
 * `SIGIL_NATIVE_USD` (`caip2=price,…`: the USD price of one native coin, e.g. `eip155:1=2450.5`)
 * on configured EVM networks; an entry replaces the dev chain's default. Throws a message naming
 * the variable and the entry.
 */
function applyGasStations(networks: Map<string, Network>, extra: GasStationSpec): void {
  const evmNetwork = (name: string, entry: string, caip2: string, format: string): Network => {
    if (!isCaip2(caip2)) throw new Error(`${name}: "${entry}" does not start with a CAIP-2 id (format: ${format})`)
    const network = networks.get(caip2)
    if (!network) throw new Error(`${name}: ${caip2} is not a configured network (add it to SIGIL_RPC)`)
    if (network.family !== 'evm') throw new Error(`${name}: ${caip2} is not an EVM network; the Gas Station is an EVM contract`)
    return network
  }
  const seen = new Set<string>()
  for (const { entry, caip2, value } of entries(extra.gasStations)) {
    const network = evmNetwork('SIGIL_GAS_STATION', entry, caip2, 'caip2=0xaddress')
    if (seen.has(caip2)) throw new Error(`SIGIL_GAS_STATION: ${caip2} is listed twice`)
    seen.add(caip2)
    if (!/^0x[0-9a-fA-F]{40}$/.test(value) || /^0x0{40}$/.test(value))
      throw new Error(`SIGIL_GAS_STATION: "${entry}": the address is not 0x and 40 hex digits (or is the zero address)`)
    network.gasStation = value.toLowerCase()
  }
  seen.clear()
  for (const { entry, caip2, value } of entries(extra.nativeUsd)) {
    const network = evmNetwork('SIGIL_NATIVE_USD', entry, caip2, 'caip2=price')
    if (seen.has(caip2)) throw new Error(`SIGIL_NATIVE_USD: ${caip2} is listed twice`)
    seen.add(caip2)
    if (!USD_PRICE.test(value) || !/[1-9]/.test(value))
      throw new Error(`SIGIL_NATIVE_USD: "${entry}": the price must be a positive decimal number of US dollars (e.g. 2450.5)`)
    network.nativeUsd = value
  }
}

/** The comma-separated `caip2=value` entries of an environment setting, trimmed; caip2 is '' when an entry has no `=`. */
function entries(spec: string | undefined): Array<{ entry: string; caip2: string; value: string }> {
  return (spec ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const eq = entry.indexOf('=')
      return eq > 0 ? { entry, caip2: entry.slice(0, eq).trim(), value: entry.slice(eq + 1).trim() } : { entry, caip2: '', value: '' }
    })
}

const TOKEN_TEXT = /^[^\s:,][^:,\p{Cc}]*$/u
const SOLANA_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/
/** An entry in CAIP-19 form: `<caip2>/erc20:<address>:…` or `<caip2>/token:<mint>:…`. */
const CAIP19_ENTRY = /^(eip155:[0-9]{1,20}|solana:[1-9A-HJ-NP-Za-km-z]{32})\/(erc20|token):(.*)$/

/**
 * The tokens of `SIGIL_TOKENS`: comma-separated entries `caip2=address:symbol:decimals[:name[:stable]]`
 * or, in CAIP-19 form, `caip2/erc20:address:…` (EVM) and `caip2/token:mint:…` (Solana), e.g.
 * `eip155:1=0xA0b86991c6218b36c1d19d4a2e9eB0cE3606eB48:USDC:6:USD Coin:stable` or
 * `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp/token:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v:USDC:6:USD Coin:stable`.
 * An EVM address is an ERC-20 contract (stored lowercase); a Solana address is an SPL Token mint
 * (base58, kept as is). `name` defaults to the symbol; a last field `stable` marks a stablecoin.
 * Symbol and name may not contain `:` or `,`. Throws a message naming the bad entry.
 */
export function parseTokens(spec: string | undefined): Array<[string, Erc20Token]> {
  const out: Array<[string, Erc20Token]> = []
  for (const parsed of entries(spec)) {
    const { entry } = parsed
    const caip19 = parsed.caip2 === '' ? CAIP19_ENTRY.exec(entry) : null
    const caip2 = caip19 ? (caip19[1] as string) : parsed.caip2
    const value = caip19 ? (caip19[3] as string) : parsed.value
    if (!isCaip2(caip2))
      throw new Error(`SIGIL_TOKENS: "${entry}" does not start with a CAIP-2 id (eip155:<chainId> or solana:<genesis prefix>)`)
    const solana = caip2.startsWith('solana:')
    if (caip19 && (caip19[2] === 'token') !== solana)
      throw new Error(
        `SIGIL_TOKENS: "${entry}": ${solana ? 'a Solana token is solana:…/token:<mint>' : 'an EVM token is eip155:…/erc20:<address>'}`,
      )
    const [address = '', symbol = '', decimals = '', name, stable, ...rest] = value.split(':').map((s) => s.trim())
    const format = solana ? 'caip2/token:mint:symbol:decimals[:name[:stable]]' : 'caip2=address:symbol:decimals[:name[:stable]]'
    const bad = (what: string) => new Error(`SIGIL_TOKENS: "${entry}": ${what} (format: ${format})`)
    if (solana) {
      if (!SOLANA_ADDRESS.test(address) || base58.decode(address).length !== 32) throw bad('the mint is not a base58 Solana address')
    } else if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw bad('the address is not 0x and 40 hex digits')
    if (!TOKEN_TEXT.test(symbol) || symbol.length > 32) throw bad('the symbol must be 1 to 32 characters')
    if (!/^(0|[1-9][0-9]{0,2})$/.test(decimals) || Number(decimals) > 255) throw bad('decimals must be an integer 0..255')
    if (name !== undefined && (!TOKEN_TEXT.test(name) || name.length > 64)) throw bad('the name must be 1 to 64 characters')
    if ((stable !== undefined && stable !== 'stable') || rest.length > 0) throw bad('only "stable" may follow the name')
    out.push([
      caip2,
      {
        address: solana ? address : address.toLowerCase(),
        symbol,
        decimals: Number(decimals),
        name: name ?? symbol,
        stable: stable === 'stable',
      },
    ])
  }
  return out
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

/** The CAIP-19 id of a token on its network: `eip155:<chainId>/erc20:<lowercase address>`, `solana:<ref>/token:<mint>`. */
export function erc20AssetId(network: Pick<Network, 'caip2' | 'family'>, token: Pick<Erc20Token, 'address'>): string {
  return `${network.caip2}/${network.family === 'solana' ? 'token' : 'erc20'}:${token.address}`
}

/** The EVM chain id of an `eip155:` network. */
export function evmChainId(network: Network): number {
  return Number(network.caip2.slice('eip155:'.length))
}
