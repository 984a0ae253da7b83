/**
 * Curve, address-format, encoding and hash-function names used by the chains layer
 * (service-interface.md "Wallet account parameter"; wire-formats.md B4 sign_raw_payload).
 *
 * Local string-literal unions: `src/api/enums.ts` did not exist when this was written.
 * Their spellings match the wire enums exactly, so they are assignable both ways.
 */

/** The three key curves (service-interface.md "Wallet account parameter"). */
export const CURVES = ['CURVE_SECP256K1', 'CURVE_ED25519', 'CURVE_P256'] as const
export type Curve = (typeof CURVES)[number]

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
export type AddressFormat = (typeof ADDRESS_FORMATS)[number]

/** sign_raw_payload encodings Sigil implements (wire-formats.md B4). */
export type PayloadEncoding =
  | 'PAYLOAD_ENCODING_HEXADECIMAL'
  | 'PAYLOAD_ENCODING_TEXT_UTF8'
  | 'PAYLOAD_ENCODING_EIP712'

/** sign_raw_payload hash functions (wire-formats.md B4). */
export type HashFunction =
  | 'HASH_FUNCTION_NO_OP'
  | 'HASH_FUNCTION_SHA256'
  | 'HASH_FUNCTION_KECCAK256'
  | 'HASH_FUNCTION_NOT_APPLICABLE'

/** Type guard for curve names. */
export function isCurve(x: unknown): x is Curve {
  return typeof x === 'string' && (CURVES as readonly string[]).includes(x)
}

/** Type guard for address-format names. */
export function isAddressFormat(x: unknown): x is AddressFormat {
  return typeof x === 'string' && (ADDRESS_FORMATS as readonly string[]).includes(x)
}
