/**
 * secp256k1 for the service with libsecp256k1 (Bitcoin Core's library, as WebAssembly by
 * bitcoinjs' `tiny-secp256k1`), installed by the service at start:
 * - signing: the same RFC 6979 signatures as `@noble/curves`, byte for byte, in about a quarter of
 *   the time — the signing was a fifth of a `sign_raw_payload` request's CPU (bench/README.md);
 * - BIP-32 derivation: bitcoinjs' `bip32` on the same library, the same keys as `@scure/bip32`
 *   (test/unit/service/libsecp256k1.test.ts) — its public keys were a third of a sign-up's CPU.
 */
import { BIP32Factory } from 'bip32'
import * as ecc from 'tiny-secp256k1'
import type { Bip32Deriver } from '../../chains/derive.js'
import type { Secp256k1DigestSigner } from '../../chains/sign/secp256k1.js'

/** libsecp256k1's recoverable signature in the "recovered" layout: recovery id ‖ r ‖ s (low-S). */
export const libsecp256k1Signer: Secp256k1DigestSigner = (digest, privateKey) => {
  const { signature, recoveryId } = ecc.signRecoverable(digest, privateKey)
  const out = new Uint8Array(65)
  out[0] = recoveryId
  out.set(signature, 1)
  return out
}

const bip32 = BIP32Factory(ecc)

/** BIP-32 on libsecp256k1: hardened steps need no public key, the others compute it once each. */
export const libsecp256k1Bip32Deriver: Bip32Deriver = (seed, indices) => {
  let node = bip32.fromSeed(seed)
  for (const i of indices) node = node.derive(i)
  if (!node.privateKey) throw new Error('bip32 derivation produced no key')
  return { privateKey: Uint8Array.from(node.privateKey), publicKey: Uint8Array.from(node.publicKey) }
}
