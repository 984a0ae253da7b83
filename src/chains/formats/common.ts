/**
 * Small shared helpers for address formats (address-formats.md "Per-format address rules").
 */
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { ripemd160 } from '@noble/hashes/legacy.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { chainError } from '../errors.js'

/** HASH160(x) = RIPEMD160(SHA256(x)). */
export function hash160(x: Uint8Array): Uint8Array {
  return ripemd160(sha256(x))
}

/** Compressed SEC1 (33 bytes) secp256k1 key from a 33- or 65-byte encoding; refuses others. */
export function secpCompressed(publicKey: Uint8Array): Uint8Array {
  return secpPoint(publicKey).toBytes(true)
}

/** Uncompressed SEC1 (65 bytes, 04‖X‖Y) secp256k1 key from a 33- or 65-byte encoding. */
export function secpUncompressed(publicKey: Uint8Array): Uint8Array {
  return secpPoint(publicKey).toBytes(false)
}

function secpPoint(publicKey: Uint8Array) {
  try {
    return secp256k1.Point.fromBytes(publicKey)
  } catch {
    throw chainError('publicKey', 'not a valid secp256k1 public key')
  }
}

/** Requires a 32-byte ed25519 public key. */
export function ed25519Key(publicKey: Uint8Array): Uint8Array {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32) {
    throw chainError('publicKey', 'ed25519 public key must be 32 bytes')
  }
  return publicKey
}

/** CRC-16/XMODEM (poly 0x1021, init 0): used by Stellar StrKey (SEP-0023); no audited package ships it. */
export function crc16Xmodem(data: Uint8Array): number {
  let crc = 0
  for (const byte of data) {
    crc ^= byte << 8
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc
}
