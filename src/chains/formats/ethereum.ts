/**
 * ETHEREUM: `0x` + EIP-55(keccak256(pk65[1:])[12:]) (address-formats.md "ETHEREUM").
 */
import { addr } from 'micro-eth-signer'
import { secpUncompressed } from './common.js'
import type { AddressBuilder } from './descriptor.js'

/** EIP-55 checksummed Ethereum address of a secp256k1 public key (33 or 65 bytes). */
export function ethereumAddress(publicKey: Uint8Array): string {
  return addr.fromPublicKey(secpUncompressed(publicKey))
}

export const ETHEREUM_ADDRESSES = {
  ADDRESS_FORMAT_ETHEREUM: ethereumAddress,
} satisfies Record<string, AddressBuilder>
