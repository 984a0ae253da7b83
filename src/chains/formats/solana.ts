/**
 * SOLANA: base58(pk32) (address-formats.md "SOLANA").
 */
import { base58 } from '@scure/base'
import { ed25519Key } from './common.js'
import { ED, type FormatDescriptor } from './descriptor.js'

/** Solana address (base58 of the ed25519 public key). */
export function solanaAddress(publicKey: Uint8Array): string {
  return base58.encode(ed25519Key(publicKey))
}

export const SOLANA_FORMATS = {
  ADDRESS_FORMAT_SOLANA: { curves: ED, address: solanaAddress, defaultPath: "m/44'/501'/0'/0'", chain: 'Solana', variant: '' },
} satisfies Record<string, FormatDescriptor>
