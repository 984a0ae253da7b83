/**
 * What each address format IS, as data only: its curves, default path, chain and variant
 * (address-formats.md "Per-format address rules", "Default paths"). This module imports nothing but
 * types, so the browser extension (default accounts, the popup's labels) reads it without loading
 * any address builder; how an address is MADE lives in the family files, gathered by index.ts.
 * The compiler refuses this table until every format of src/api/enumLists.ts has its entry.
 */
import type { AddressFormat, BitcoinAddressType, BitcoinNetwork, Curve } from '../types.js'

/** What one address format is. */
export type FormatFacts = {
  /** The curves it accepts; the first is its default account's. */
  curves: readonly Curve[]
  /** Its default account path (address-formats.md "Default paths"); undefined where a path is required. */
  defaultPath: string | undefined
  /** The chain it belongs to, as a person names it (the popup groups accounts by it). */
  chain: string
  /** Its variant within the chain (`P2WPKH`, `V4R2`), empty when the chain has one. */
  variant: string
}

const SECP: readonly Curve[] = ['CURVE_SECP256K1']
const ED: readonly Curve[] = ['CURVE_ED25519']
/** Every curve, in the interface's list order (CURVES). */
const ANY_CURVE: readonly Curve[] = ['CURVE_SECP256K1', 'CURVE_ED25519', 'CURVE_P256']

/** A format with one curve and a default path, on a chain with one format. */
const single = (curves: readonly Curve[], defaultPath: string, chain: string): FormatFacts => ({
  curves,
  defaultPath,
  chain,
  variant: '',
})

/** Default path per Bitcoin address type, for coin type `coin` (0' mainnet, 1' the test networks). */
const BITCOIN_PATHS: Record<BitcoinAddressType, (coin: string) => string> = {
  P2PKH: (coin) => `m/44'/${coin}/0'/0/0`,
  P2SH: (coin) => `m/44'/${coin}/0'/0/0`,
  P2WPKH: (coin) => `m/84'/${coin}/0'/0/0`,
  P2WSH: (coin) => `m/48'/${coin}/0'/2'/0/0`,
  P2TR: (coin) => `m/86'/${coin}/0'/0/0`,
}

const bitcoin = (network: BitcoinNetwork, type: BitcoinAddressType): FormatFacts => ({
  curves: SECP,
  defaultPath: BITCOIN_PATHS[type](network === 'MAINNET' ? "0'" : "1'"),
  chain: network === 'MAINNET' ? 'Bitcoin' : 'Bitcoin testnet',
  variant: type,
})

const DOGE_PATH = "m/44'/3'/0'/0/0"
const TON_PATH = "m/44'/607'/0'/0'/0'"
const ton = (variant: string): FormatFacts => ({ curves: ED, defaultPath: TON_PATH, chain: 'TON', variant })

/** The raw public-key formats have no chain of their own, so no default path (a path is required). */
const rawKeys = (curves: readonly Curve[]): FormatFacts => ({ curves, defaultPath: undefined, chain: 'Public keys', variant: '' })

/** Every address format's facts, in the interface's list order. */
export const FORMAT_FACTS = {
  ADDRESS_FORMAT_UNCOMPRESSED: rawKeys(['CURVE_SECP256K1', 'CURVE_P256']),
  ADDRESS_FORMAT_COMPRESSED: rawKeys(ANY_CURVE),
  ADDRESS_FORMAT_ETHEREUM: single(SECP, "m/44'/60'/0'/0/0", 'Ethereum'),
  ADDRESS_FORMAT_SOLANA: single(ED, "m/44'/501'/0'/0'", 'Solana'),
  ADDRESS_FORMAT_COSMOS: single(SECP, "m/44'/118'/0'/0/0", 'Cosmos'),
  ADDRESS_FORMAT_TRON: single(SECP, "m/44'/195'/0'", 'Tron'),
  ADDRESS_FORMAT_SUI: single(ED, "m/44'/784'/0'/0'/0'", 'Sui'),
  ADDRESS_FORMAT_APTOS: single(ED, "m/44'/637'/0'/0'/0'", 'Aptos'),
  ADDRESS_FORMAT_SEI: single(SECP, "m/44'/118'/0'/0'/0'", 'Sei'),
  ADDRESS_FORMAT_XLM: single(ED, "m/44'/148'/0'", 'Stellar'),
  ADDRESS_FORMAT_XRP: single(SECP, "m/44'/144'/0'/0'/0'", 'XRP Ledger'),
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH: bitcoin('MAINNET', 'P2PKH'),
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH: bitcoin('MAINNET', 'P2SH'),
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH: bitcoin('MAINNET', 'P2WPKH'),
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH: bitcoin('MAINNET', 'P2WSH'),
  ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR: bitcoin('MAINNET', 'P2TR'),
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH: bitcoin('TESTNET', 'P2PKH'),
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH: bitcoin('TESTNET', 'P2SH'),
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH: bitcoin('TESTNET', 'P2WPKH'),
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH: bitcoin('TESTNET', 'P2WSH'),
  ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR: bitcoin('TESTNET', 'P2TR'),
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH: bitcoin('SIGNET', 'P2PKH'),
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH: bitcoin('SIGNET', 'P2SH'),
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH: bitcoin('SIGNET', 'P2WPKH'),
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH: bitcoin('SIGNET', 'P2WSH'),
  ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR: bitcoin('SIGNET', 'P2TR'),
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH: bitcoin('REGTEST', 'P2PKH'),
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH: bitcoin('REGTEST', 'P2SH'),
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH: bitcoin('REGTEST', 'P2WPKH'),
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH: bitcoin('REGTEST', 'P2WSH'),
  ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR: bitcoin('REGTEST', 'P2TR'),
  ADDRESS_FORMAT_DOGE_MAINNET: single(SECP, DOGE_PATH, 'Dogecoin'),
  ADDRESS_FORMAT_DOGE_TESTNET: single(SECP, DOGE_PATH, 'Dogecoin testnet'),
  ADDRESS_FORMAT_TON_V3R2: ton('V3R2'),
  ADDRESS_FORMAT_TON_V4R2: ton('V4R2'),
  ADDRESS_FORMAT_TON_V5R1: ton('V5R1'),
} satisfies Record<AddressFormat, FormatFacts>
