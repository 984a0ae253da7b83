/**
 * ETHEREUM: `0x` + EIP-55(keccak256(pk65[1:])[12:]) (address-formats.md "ETHEREUM").
 */
import { addr } from 'micro-eth-signer'
import { secpUncompressed } from './common.js'
import { type FormatDescriptor, SECP } from './descriptor.js'

/** EIP-55 checksummed Ethereum address of a secp256k1 public key (33 or 65 bytes). */
export function ethereumAddress(publicKey: Uint8Array): string {
  return addr.fromPublicKey(secpUncompressed(publicKey))
}

export const ETHEREUM_FORMATS = {
  ADDRESS_FORMAT_ETHEREUM: { curves: SECP, address: ethereumAddress, defaultPath: "m/44'/60'/0'/0/0", chain: 'Ethereum', variant: '' },
} satisfies Record<string, FormatDescriptor>
