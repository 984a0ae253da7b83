/**
 * P-256 key helpers (wire-formats B1.1, B2): SEC1 compression, key generation, validation.
 * All curve math is @noble/curves; nothing here is hand-rolled.
 */
import { p256 } from '@noble/curves/nist.js'
import { invalidField } from '../api/errors.js'
import { hexToBytes } from './encoding.js'

function pointFrom(pub: Uint8Array, field: string) {
  if (!(pub instanceof Uint8Array) || (pub.length !== 33 && pub.length !== 65)) {
    throw invalidField(field, 'must be a 33-byte compressed or 65-byte uncompressed P-256 point')
  }
  try {
    return p256.Point.fromBytes(pub)
  } catch {
    throw invalidField(field, 'is not a point on P-256')
  }
}

/** 33-byte compressed SEC1 point from a 33- or 65-byte P-256 public key (B1.1). */
export function compressP256PublicKey(pub: Uint8Array, field = 'publicKey'): Uint8Array {
  return pointFrom(pub, field).toBytes(true)
}

/** 65-byte uncompressed `04||X||Y` point from a 33- or 65-byte P-256 public key (B2). */
export function uncompressP256PublicKey(pub: Uint8Array, field = 'publicKey'): Uint8Array {
  return pointFrom(pub, field).toBytes(false)
}

/** Public key of a 32-byte P-256 scalar; compressed (33 B) by default. */
export function p256PublicKeyFromPrivate(priv: Uint8Array, compressed = true): Uint8Array {
  if (!(priv instanceof Uint8Array) || priv.length !== 32 || !p256.utils.isValidSecretKey(priv)) {
    throw invalidField('privateKey', 'must be a valid 32-byte P-256 scalar')
  }
  return p256.getPublicKey(priv, compressed)
}

/** A fresh random P-256 key pair as raw bytes (B2 `generateP256KeyPair`). */
export function generateP256KeyPair(): {
  privateKey: Uint8Array
  publicKey: Uint8Array
  publicKeyUncompressed: Uint8Array
} {
  const privateKey = p256.utils.randomSecretKey()
  return {
    privateKey,
    publicKey: p256.getPublicKey(privateKey, true),
    publicKeyUncompressed: p256.getPublicKey(privateKey, false),
  }
}

/** True when `hex` is a valid compressed or uncompressed P-256 public key. */
export function isValidP256PublicKeyHex(hex: string): boolean {
  try {
    const bytes = hexToBytes(hex)
    if (bytes.length !== 33 && bytes.length !== 65) return false
    p256.Point.fromBytes(bytes)
    return true
  } catch {
    return false
  }
}
