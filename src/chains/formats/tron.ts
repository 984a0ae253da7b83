/**
 * TRON: base58check(0x41 ‖ keccak256(pk65[1:])[12:]) → `T…` (address-formats.md "TRON").
 */
import { keccak_256 } from '@noble/hashes/sha3.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { createBase58check } from '@scure/base'
import { concatBytes } from '../../crypto/encoding.js'
import { secpUncompressed } from './common.js'
import type { AddressBuilder } from './descriptor.js'

const b58c = createBase58check(sha256)

/** TRON base58 address of a secp256k1 public key. */
export function tronAddress(publicKey: Uint8Array): string {
  const body = keccak_256(secpUncompressed(publicKey).slice(1)).slice(12)
  return b58c.encode(concatBytes(new Uint8Array([0x41]), body))
}

export const TRON_ADDRESSES = {
  ADDRESS_FORMAT_TRON: tronAddress,
} satisfies Record<string, AddressBuilder>
