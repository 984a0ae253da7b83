/**
 * SOLANA: base58(pk32) (address-formats.md "SOLANA").
 */
import { base58 } from '@scure/base'
import { ed25519Key } from './common.js'

/** Solana address (base58 of the ed25519 public key). */
export function solanaAddress(publicKey: Uint8Array): string {
  return base58.encode(ed25519Key(publicKey))
}
