/**
 * ECDSA P-256 / SHA-256 sign and verify helpers shared by stamps, bundles, proofs and tokens
 * (wire-formats B1.1, B2, B3). Verification accepts high-S (A4); signing is RFC 6979.
 */
import { p256 } from '@noble/curves/nist.js'

/** DER ECDSA-P256-SHA256 signature over `message` (RFC 6979, low-S). */
export function signP256Der(message: Uint8Array, privateKey: Uint8Array): Uint8Array {
  return p256.sign(message, privateKey, { prehash: true, lowS: true, format: 'der' })
}

/** Verify a DER ECDSA-P256-SHA256 signature, high-S accepted; `null` when the key or DER is malformed. */
export function verifyP256Der(pub: Uint8Array, der: Uint8Array, message: Uint8Array): boolean | null {
  if (pub.length !== 33 && pub.length !== 65) return null
  try {
    p256.Point.fromBytes(pub)
    p256.Signature.fromBytes(der, 'der')
  } catch {
    return null
  }
  try {
    return p256.verify(der, message, pub, { prehash: true, lowS: false, format: 'der' })
  } catch {
    return false
  }
}

/** Verify a 64-byte r||s ECDSA-P256 signature; `prehash` hashes `message` with SHA-256 first. */
export function verifyP256Compact(pub: Uint8Array, sig: Uint8Array, message: Uint8Array, prehash = true): boolean {
  if (sig.length !== 64 || (pub.length !== 33 && pub.length !== 65)) return false
  try {
    return p256.verify(sig, message, pub, { prehash, lowS: false, format: 'compact' })
  } catch {
    return false
  }
}

/** 64-byte r||s ECDSA-P256 signature; `prehash` hashes `message` with SHA-256 first. */
export function signP256Compact(message: Uint8Array, privateKey: Uint8Array, prehash = true): Uint8Array {
  return p256.sign(message, privateKey, { prehash, lowS: true, format: 'compact' })
}
