/**
 * secp256k1 ECDSA over a 32-byte digest (RFC 6979 deterministic nonce, low-S), in noble's
 * "recovered" layout: recovery id ‖ r ‖ s (65 bytes). The pure-JS `@noble/curves` implementation
 * is the default everywhere (the extension included); a host may install another implementation
 * of the same function with {@link useSecp256k1DigestSigner} — the service installs
 * libsecp256k1 (`src/service/chains/libsecp256k1.ts`), which gives byte-identical signatures
 * about four times faster.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js'

/** Signs `digest` (32 bytes) with `privateKey` (32 bytes): recovery id ‖ r ‖ s. */
export type Secp256k1DigestSigner = (digest: Uint8Array, privateKey: Uint8Array) => Uint8Array

const OPTS = { prehash: false, lowS: true, format: 'recovered' } as const

/** The pure-JS signer (`@noble/curves`). */
export const nobleSecp256k1Signer: Secp256k1DigestSigner = (digest, privateKey) => secp256k1.sign(digest, privateKey, OPTS)

let signer: Secp256k1DigestSigner = nobleSecp256k1Signer

/** Installs `next` for every later secp256k1 digest signature in this process; returns the previous one. */
export function useSecp256k1DigestSigner(next: Secp256k1DigestSigner): Secp256k1DigestSigner {
  const previous = signer
  signer = next
  return previous
}

/** Signs `digest` with the installed implementation. */
export function signSecp256k1Digest(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
  return signer(digest, privateKey)
}
