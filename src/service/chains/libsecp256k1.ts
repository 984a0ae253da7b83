/**
 * secp256k1 signing for the service with libsecp256k1 (Bitcoin Core's library, as WebAssembly by
 * bitcoinjs' `tiny-secp256k1`): the same RFC 6979 signatures as `@noble/curves`, byte for byte
 * (test/unit/service/libsecp256k1.test.ts), in about a quarter of the time — the signing was a
 * fifth of a `sign_raw_payload` request's CPU (bench/README.md). Installed by the service at start.
 */
import { signRecoverable } from 'tiny-secp256k1'
import type { Secp256k1DigestSigner } from '../../chains/sign/secp256k1.js'

/** libsecp256k1's recoverable signature in the "recovered" layout: recovery id ‖ r ‖ s (low-S). */
export const libsecp256k1Signer: Secp256k1DigestSigner = (digest, privateKey) => {
  const { signature, recoveryId } = signRecoverable(digest, privateKey)
  const out = new Uint8Array(65)
  out[0] = recoveryId
  out.set(signature, 1)
  return out
}
