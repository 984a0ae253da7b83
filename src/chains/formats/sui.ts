/**
 * SUI: `0x` + hex(BLAKE2b-256(0x00 ‖ pk32)) (address-formats.md "SUI"; 0x00 = Ed25519 scheme flag).
 */
import { blake2b } from '@noble/hashes/blake2.js'
import { bytesToHex, concatBytes } from '../../crypto/encoding.js'
import { ed25519Key } from './common.js'
import type { AddressBuilder } from './descriptor.js'

/** Sui address of an ed25519 public key. */
export function suiAddress(publicKey: Uint8Array): string {
  return '0x' + bytesToHex(blake2b(concatBytes(new Uint8Array([0]), ed25519Key(publicKey)), { dkLen: 32 }))
}

export const SUI_ADDRESSES = {
  ADDRESS_FORMAT_SUI: suiAddress,
} satisfies Record<string, AddressBuilder>
