/**
 * APTOS: `0x` + hex(SHA3-256(pk32 ‖ 0x00)), the single-Ed25519 authentication key
 * (address-formats.md "APTOS").
 */
import { sha3_256 } from '@noble/hashes/sha3.js'
import { bytesToHex, concatBytes } from '../../crypto/encoding.js'
import { ed25519Key } from './common.js'
import type { AddressBuilder } from './descriptor.js'

/** Aptos long-form address of an ed25519 public key. */
export function aptosAddress(publicKey: Uint8Array): string {
  return '0x' + bytesToHex(sha3_256(concatBytes(ed25519Key(publicKey), new Uint8Array([0]))))
}

export const APTOS_ADDRESSES = {
  ADDRESS_FORMAT_APTOS: aptosAddress,
} satisfies Record<string, AddressBuilder>
