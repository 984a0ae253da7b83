/**
 * COSMOS and SEI: bech32(hrp, HASH160(pk33)) (address-formats.md "COSMOS", "SEI").
 */
import { bech32 } from '@scure/base'
import { hash160, secpCompressed } from './common.js'
import type { AddressBuilder } from './descriptor.js'

/** bech32 (BIP-173) account address with `hrp` of a secp256k1 public key. */
export function cosmosStyleAddress(hrp: string, publicKey: Uint8Array): string {
  return bech32.encode(hrp, bech32.toWords(hash160(secpCompressed(publicKey))))
}

/** `cosmos1…` address. */
export function cosmosAddress(publicKey: Uint8Array): string {
  return cosmosStyleAddress('cosmos', publicKey)
}

/** `sei1…` address (Sigil: secp256k1 only). */
export function seiAddress(publicKey: Uint8Array): string {
  return cosmosStyleAddress('sei', publicKey)
}

export const COSMOS_ADDRESSES = {
  ADDRESS_FORMAT_COSMOS: cosmosAddress,
  ADDRESS_FORMAT_SEI: seiAddress,
} satisfies Record<string, AddressBuilder>
