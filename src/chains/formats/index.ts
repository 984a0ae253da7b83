/**
 * The 36 address formats: which curves each fits and how it renders a public key
 * (address-formats.md "Per-format address rules").
 */
import { chainError } from '../errors.js'
import { type AddressFormat, BITCOIN_ADDRESS_TYPES, BITCOIN_NETWORKS, type BitcoinAddressFormat, CURVES, type Curve } from '../types.js'
import { aptosAddress } from './aptos.js'
import { bitcoinAddress } from './bitcoin.js'
import { cosmosAddress, seiAddress } from './cosmos.js'
import { dogeAddress } from './doge.js'
import { ethereumAddress } from './ethereum.js'
import { compressedAddress, uncompressedAddress } from './raw.js'
import { solanaAddress } from './solana.js'
import { stellarAddress } from './stellar.js'
import { suiAddress } from './sui.js'
import { tonAddress } from './ton.js'
import { tronAddress } from './tron.js'
import { xrpAddress } from './xrp.js'

/** One format: the curves it accepts and its address function (public key as derived: 33 or 32 bytes). */
export type FormatSpec = {
  curves: readonly Curve[]
  /** `curve` matters only for UNCOMPRESSED/COMPRESSED (secp256k1 vs P-256 points). */
  address(publicKey: Uint8Array, curve?: Curve): string
}

const SECP: readonly Curve[] = ['CURVE_SECP256K1']
const ED: readonly Curve[] = ['CURVE_ED25519']

/** The 20 Bitcoin formats, every network × every address type of the interface's lists. */
const BITCOIN_FORMATS = Object.fromEntries(
  BITCOIN_NETWORKS.flatMap((n) =>
    BITCOIN_ADDRESS_TYPES.map((t): [BitcoinAddressFormat, FormatSpec] => [
      `ADDRESS_FORMAT_BITCOIN_${n}_${t}`,
      { curves: SECP, address: (pk) => bitcoinAddress(n, t, pk) },
    ]),
  ),
) as Record<BitcoinAddressFormat, FormatSpec>

function needCurve(curve: Curve | undefined): Curve {
  if (curve === undefined) throw chainError('curve', 'required for raw public-key formats')
  return curve
}

/** Every address format Sigil derives. */
export const FORMATS: Record<AddressFormat, FormatSpec> = {
  ADDRESS_FORMAT_UNCOMPRESSED: {
    curves: ['CURVE_SECP256K1', 'CURVE_P256'],
    address: (pk, curve) => uncompressedAddress(needCurve(curve), pk),
  },
  ADDRESS_FORMAT_COMPRESSED: {
    curves: CURVES,
    address: (pk, curve) => compressedAddress(needCurve(curve), pk),
  },
  ADDRESS_FORMAT_ETHEREUM: { curves: SECP, address: ethereumAddress },
  ADDRESS_FORMAT_SOLANA: { curves: ED, address: solanaAddress },
  ADDRESS_FORMAT_COSMOS: { curves: SECP, address: cosmosAddress },
  ADDRESS_FORMAT_TRON: { curves: SECP, address: tronAddress },
  ADDRESS_FORMAT_SUI: { curves: ED, address: suiAddress },
  ADDRESS_FORMAT_APTOS: { curves: ED, address: aptosAddress },
  ADDRESS_FORMAT_SEI: { curves: SECP, address: seiAddress },
  ADDRESS_FORMAT_XLM: { curves: ED, address: stellarAddress },
  ADDRESS_FORMAT_XRP: { curves: SECP, address: xrpAddress },
  ...BITCOIN_FORMATS,
  ADDRESS_FORMAT_DOGE_MAINNET: { curves: SECP, address: (pk) => dogeAddress('MAINNET', pk) },
  ADDRESS_FORMAT_DOGE_TESTNET: { curves: SECP, address: (pk) => dogeAddress('TESTNET', pk) },
  ADDRESS_FORMAT_TON_V3R2: { curves: ED, address: (pk) => tonAddress('v3r2', pk) },
  ADDRESS_FORMAT_TON_V4R2: { curves: ED, address: (pk) => tonAddress('v4r2', pk) },
  ADDRESS_FORMAT_TON_V5R1: { curves: ED, address: (pk) => tonAddress('v5r1', pk) },
}
