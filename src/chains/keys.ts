/**
 * Stand-alone keys (private keys outside wallets): a fresh key pair per curve, and the public key of
 * an imported one. Public keys are as derived keys are: 33 bytes compressed (secp256k1, P-256) or
 * 32 (ed25519).
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { p256 } from '@noble/curves/nist.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { chainError } from './errors.js'
import type { Curve } from './types.js'

export type KeyPair = { privateKey: Uint8Array; publicKey: Uint8Array }

/** A new random key pair on `curve`. */
export function generateKeyPair(curve: Curve): KeyPair {
  if (curve === 'CURVE_SECP256K1') {
    const privateKey = secp256k1.utils.randomSecretKey()
    return { privateKey, publicKey: secp256k1.getPublicKey(privateKey, true) }
  }
  if (curve === 'CURVE_P256') {
    const privateKey = p256.utils.randomSecretKey()
    return { privateKey, publicKey: p256.getPublicKey(privateKey, true) }
  }
  const privateKey = ed25519.utils.randomSecretKey()
  return { privateKey, publicKey: ed25519.getPublicKey(privateKey) }
}

/** The public key of a 32-byte private key on `curve`; errors name `privateKey` when it is not a valid scalar. */
export function publicKeyOf(curve: Curve, privateKey: Uint8Array): Uint8Array {
  if (privateKey.length !== 32) throw chainError('privateKey', 'must be 32 bytes')
  try {
    if (curve === 'CURVE_SECP256K1') return secp256k1.getPublicKey(privateKey, true)
    if (curve === 'CURVE_P256') return p256.getPublicKey(privateKey, true)
    return ed25519.getPublicKey(privateKey)
  } catch {
    throw chainError('privateKey', `is not a valid ${curve} private key`)
  }
}
