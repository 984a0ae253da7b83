/**
 * UNCOMPRESSED (hex pk65) and COMPRESSED (hex pk33, or hex pk32 on ed25519) "addresses"
 * (address-formats.md "UNCOMPRESSED", "COMPRESSED"): lowercase, no `0x`.
 */
import { p256 } from '@noble/curves/nist.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex } from '../../crypto/encoding.js'
import { chainError } from '../errors.js'
import type { Curve } from '../types.js'
import { ed25519Key } from './common.js'
import type { AddressBuilder } from './descriptor.js'

function point(curve: Curve, publicKey: Uint8Array) {
  try {
    if (curve === 'CURVE_SECP256K1') return secp256k1.Point.fromBytes(publicKey)
    if (curve === 'CURVE_P256') return p256.Point.fromBytes(publicKey)
  } catch {
    throw chainError('publicKey', `not a valid ${curve} public key`)
  }
  throw chainError('curve', `${curve} has no SEC1 point encoding`)
}

/** 04‖X‖Y hex (secp256k1, P-256). */
export function uncompressedAddress(curve: Curve, publicKey: Uint8Array): string {
  return bytesToHex(point(curve, publicKey).toBytes(false))
}

/** 02/03‖X hex (secp256k1, P-256) or the 32-byte key hex (ed25519). */
export function compressedAddress(curve: Curve, publicKey: Uint8Array): string {
  if (curve === 'CURVE_ED25519') return bytesToHex(ed25519Key(publicKey))
  return bytesToHex(point(curve, publicKey).toBytes(true))
}

function needCurve(curve: Curve | undefined): Curve {
  if (curve === undefined) throw chainError('curve', 'required for raw public-key formats')
  return curve
}

/** The raw public-key formats: the hex of the key itself, in the encoding of its curve. */
export const RAW_ADDRESSES = {
  ADDRESS_FORMAT_UNCOMPRESSED: (pk: Uint8Array, curve?: Curve) => uncompressedAddress(needCurve(curve), pk),
  ADDRESS_FORMAT_COMPRESSED: (pk: Uint8Array, curve?: Curve) => compressedAddress(needCurve(curve), pk),
} satisfies Record<string, AddressBuilder>
