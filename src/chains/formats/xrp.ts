/**
 * XRP: base58_ripple(0x00 ‖ HASH160(pk33) ‖ SHA256²(…)[0:4]) → `r…` (address-formats.md "XRP").
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { base58xrp } from '@scure/base'
import { concatBytes } from '../../crypto/encoding.js'
import { hash160, secpCompressed } from './common.js'
import type { AddressBuilder } from './descriptor.js'

/** XRP classic address of a secp256k1 public key. */
export function xrpAddress(publicKey: Uint8Array): string {
  const payload = concatBytes(new Uint8Array([0]), hash160(secpCompressed(publicKey)))
  return base58xrp.encode(concatBytes(payload, sha256(sha256(payload)).slice(0, 4)))
}

export const XRP_ADDRESSES = {
  ADDRESS_FORMAT_XRP: xrpAddress,
} satisfies Record<string, AddressBuilder>
