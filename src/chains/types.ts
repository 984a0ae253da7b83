/**
 * Curve, address-format, encoding and hash-function names used by the chains layer
 * (service-interface.md "Wallet account parameter"; wire-formats.md B4 sign_raw_payload).
 *
 * Lists and types are the interface's own, from src/api/enumLists.ts (no zod there).
 */
import {
  ADDRESS_FORMATS,
  type AddressFormat,
  BITCOIN_ADDRESS_TYPES,
  BITCOIN_NETWORKS,
  type BitcoinAddressFormat,
  type BitcoinAddressType,
  type BitcoinNetwork,
  CURVES,
  type Curve,
} from '../api/enumLists.js'

export {
  ADDRESS_FORMATS,
  BITCOIN_ADDRESS_FORMATS,
  BITCOIN_ADDRESS_TYPES,
  BITCOIN_NETWORKS,
  CURVES,
  type AddressFormat,
  type BitcoinAddressFormat,
  type BitcoinAddressType,
  type BitcoinNetwork,
  type Curve,
  type HashFunction,
  type PayloadEncoding,
} from '../api/enumLists.js'

/** Type guard for curve names. */
export function isCurve(x: unknown): x is Curve {
  return typeof x === 'string' && (CURVES as readonly string[]).includes(x)
}

/** Type guard for address-format names. */
export function isAddressFormat(x: unknown): x is AddressFormat {
  return typeof x === 'string' && (ADDRESS_FORMATS as readonly string[]).includes(x)
}

/** The network and address type of a Bitcoin address format; undefined for any other string. */
export function bitcoinFormatParts(format: string): { network: BitcoinNetwork; type: BitcoinAddressType } | undefined {
  for (const network of BITCOIN_NETWORKS) {
    for (const type of BITCOIN_ADDRESS_TYPES) {
      if (format === (`ADDRESS_FORMAT_BITCOIN_${network}_${type}` satisfies BitcoinAddressFormat)) return { network, type }
    }
  }
  return undefined
}
