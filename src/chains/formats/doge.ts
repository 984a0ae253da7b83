/**
 * DOGE_MAINNET / DOGE_TESTNET: P2PKH b58c(ver ‖ HASH160(pk33)), ver 0x1e (`D…`) / 0x71 (`n…`)
 * (address-formats.md "DOGE_*"), via @scure/btc-signer with Dogecoin network bytes.
 */
import { p2pkh } from '@scure/btc-signer'
import type { BtcNetworkParams } from './bitcoin.js'
import { secpCompressed } from './common.js'
import type { AddressBuilder } from './descriptor.js'

/** Dogecoin network parameters (bech32 unused). */
export const DOGE_NETWORKS: Record<'MAINNET' | 'TESTNET', BtcNetworkParams> = {
  MAINNET: { bech32: 'doge', pubKeyHash: 0x1e, scriptHash: 0x16, wif: 0x9e },
  TESTNET: { bech32: 'tdge', pubKeyHash: 0x71, scriptHash: 0xc4, wif: 0xf1 },
}

/** Dogecoin P2PKH address of a secp256k1 public key. */
export function dogeAddress(network: 'MAINNET' | 'TESTNET', publicKey: Uint8Array): string {
  const out = p2pkh(secpCompressed(publicKey), DOGE_NETWORKS[network])
  if (out.address === undefined) throw new Error('btc-signer returned no address')
  return out.address
}

export const DOGE_ADDRESSES = {
  ADDRESS_FORMAT_DOGE_MAINNET: (pk: Uint8Array) => dogeAddress('MAINNET', pk),
  ADDRESS_FORMAT_DOGE_TESTNET: (pk: Uint8Array) => dogeAddress('TESTNET', pk),
} satisfies Record<string, AddressBuilder>
