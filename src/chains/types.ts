/**
 * Curve, address-format, encoding and hash-function names used by the chains layer
 * (service-interface.md "Wallet account parameter"; wire-formats.md B4 sign_raw_payload).
 *
 * The TYPES come from src/api/enums.ts (type-only import, so src/chains does not load zod);
 * the runtime lists below are asserted equal to them at compile time.
 */
import type {
  AddressFormat as ApiAddressFormat,
  Curve as ApiCurve,
  HashFunction as ApiHashFunction,
  PayloadEncoding as ApiPayloadEncoding,
} from '../api/enums.js'

/** The three key curves (service-interface.md "Wallet account parameter"). */
export const CURVES = ['CURVE_SECP256K1', 'CURVE_ED25519', 'CURVE_P256'] as const
export type Curve = ApiCurve

const BTC_NETWORKS = ['MAINNET', 'TESTNET', 'SIGNET', 'REGTEST'] as const
const BTC_TYPES = ['P2PKH', 'P2SH', 'P2WPKH', 'P2WSH', 'P2TR'] as const
export type BitcoinNetwork = (typeof BTC_NETWORKS)[number]
export type BitcoinAddressType = (typeof BTC_TYPES)[number]
export type BitcoinAddressFormat = `ADDRESS_FORMAT_BITCOIN_${BitcoinNetwork}_${BitcoinAddressType}`

/** All 36 address formats (service-interface.md "Address formats"). */
export const ADDRESS_FORMATS = [
  'ADDRESS_FORMAT_UNCOMPRESSED',
  'ADDRESS_FORMAT_COMPRESSED',
  'ADDRESS_FORMAT_ETHEREUM',
  'ADDRESS_FORMAT_SOLANA',
  'ADDRESS_FORMAT_COSMOS',
  'ADDRESS_FORMAT_TRON',
  'ADDRESS_FORMAT_SUI',
  'ADDRESS_FORMAT_APTOS',
  'ADDRESS_FORMAT_SEI',
  'ADDRESS_FORMAT_XLM',
  'ADDRESS_FORMAT_XRP',
  ...BTC_NETWORKS.flatMap((n) => BTC_TYPES.map((t) => `ADDRESS_FORMAT_BITCOIN_${n}_${t}` as const)),
  'ADDRESS_FORMAT_DOGE_MAINNET',
  'ADDRESS_FORMAT_DOGE_TESTNET',
  'ADDRESS_FORMAT_TON_V3R2',
  'ADDRESS_FORMAT_TON_V4R2',
  'ADDRESS_FORMAT_TON_V5R1',
] as const
export type AddressFormat = ApiAddressFormat

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const _curvesInSync: Same<(typeof CURVES)[number], ApiCurve> = true
const _formatsInSync: Same<(typeof ADDRESS_FORMATS)[number], ApiAddressFormat> = true
void _curvesInSync
void _formatsInSync

/** sign_raw_payload encodings (wire-formats.md B4); EIP7702_AUTHORIZATION is refused at runtime. */
export type PayloadEncoding = ApiPayloadEncoding

/** sign_raw_payload hash functions (wire-formats.md B4). */
export type HashFunction = ApiHashFunction

/** Type guard for curve names. */
export function isCurve(x: unknown): x is Curve {
  return typeof x === 'string' && (CURVES as readonly string[]).includes(x)
}

/** Type guard for address-format names. */
export function isAddressFormat(x: unknown): x is AddressFormat {
  return typeof x === 'string' && (ADDRESS_FORMATS as readonly string[]).includes(x)
}
