/**
 * SOLANA: base58(pk32) (address-formats.md "SOLANA").
 */
import { base58 } from '@scure/base'
import { ed25519Key } from './common.js'
import type { AddressBuilder } from './descriptor.js'

/** Solana address (base58 of the ed25519 public key). */
export function solanaAddress(publicKey: Uint8Array): string {
  return base58.encode(ed25519Key(publicKey))
}

export const SOLANA_ADDRESSES = {
  ADDRESS_FORMAT_SOLANA: solanaAddress,
} satisfies Record<string, AddressBuilder>
