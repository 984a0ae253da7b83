/**
 * Bitcoin P2PKH / P2SH-P2WPKH / P2WPKH / P2WSH(<pk> OP_CHECKSIG) / P2TR (BIP-86) addresses on
 * mainnet, testnet, signet and regtest (address-formats.md "BITCOIN_*"), via @scure/btc-signer.
 */
import { NETWORK, TEST_NETWORK, p2pk, p2pkh, p2sh, p2tr, p2wpkh, p2wsh } from '@scure/btc-signer'
import {
  BITCOIN_ADDRESS_TYPES,
  BITCOIN_NETWORKS,
  type BitcoinAddressFormat,
  type BitcoinAddressType,
  type BitcoinNetwork,
} from '../types.js'
import { secpCompressed } from './common.js'
import type { AddressBuilder } from './descriptor.js'

/** Network parameters in @scure/btc-signer's shape. */
export type BtcNetworkParams = typeof NETWORK

/** Base58 version bytes and bech32 HRP per network (signet shares testnet's; regtest uses `bcrt`). */
export const BITCOIN_NETWORK_PARAMS: Record<BitcoinNetwork, BtcNetworkParams> = {
  MAINNET: NETWORK,
  TESTNET: TEST_NETWORK,
  SIGNET: TEST_NETWORK,
  REGTEST: { ...TEST_NETWORK, bech32: 'bcrt' },
}

/** Address of a secp256k1 public key for one Bitcoin network and output type. */
export function bitcoinAddress(network: BitcoinNetwork, type: BitcoinAddressType, publicKey: Uint8Array): string {
  const net = BITCOIN_NETWORK_PARAMS[network]
  const pk = secpCompressed(publicKey)
  let out: { address?: string }
  switch (type) {
    case 'P2PKH':
      out = p2pkh(pk, net)
      break
    case 'P2SH':
      out = p2sh(p2wpkh(pk, net), net)
      break
    case 'P2WPKH':
      out = p2wpkh(pk, net)
      break
    case 'P2WSH':
      out = p2wsh(p2pk(pk, net), net)
      break
    case 'P2TR':
      out = p2tr(pk.slice(1), undefined, net)
      break
  }
  if (out.address === undefined) throw new Error('btc-signer returned no address')
  return out.address
}

/** The 20 Bitcoin formats, every network × every address type of the interface's lists, network-major. */
export const BITCOIN_ADDRESSES = Object.fromEntries(
  BITCOIN_NETWORKS.flatMap((n) =>
    BITCOIN_ADDRESS_TYPES.map((t): [BitcoinAddressFormat, AddressBuilder] => [
      `ADDRESS_FORMAT_BITCOIN_${n}_${t}`,
      (pk) => bitcoinAddress(n, t, pk),
    ]),
  ),
) as Record<BitcoinAddressFormat, AddressBuilder>
