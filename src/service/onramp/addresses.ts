/**
 * What a real on-ramp provider refuses before a purchase: a wallet address
 * that is not valid for the network, and a currency the network does not carry.
 */
import { NETWORK, Address } from '@scure/btc-signer'
import { base58 } from '@scure/base'
import { addr } from 'micro-eth-signer'
import { ON_RAMP_CURRENCY_NETWORKS, type OnRampCryptoCurrency, type OnRampNetwork } from '../../api/enumLists.js'

/** True when `currency` is carried on `network`. */
export function currencyOnNetwork(currency: OnRampCryptoCurrency, network: OnRampNetwork): boolean {
  return ON_RAMP_CURRENCY_NETWORKS[currency].includes(network)
}

export type AddressCheck = { ok: true } | { ok: false; reason: string }

function evmAddress(a: string): AddressCheck {
  if (!/^0x[0-9a-fA-F]{40}$/.test(a)) return { ok: false, reason: 'must be 0x followed by 40 hex digits' }
  // EIP-55: the mixed-case checksum must be present and right.
  if (addr.addChecksum(a.toLowerCase()) !== a) return { ok: false, reason: 'must be an EIP-55 checksummed address' }
  return { ok: true }
}

function solanaAddress(a: string): AddressCheck {
  let bytes: Uint8Array
  try {
    bytes = base58.decode(a)
  } catch {
    return { ok: false, reason: 'must be base58' }
  }
  return bytes.length === 32 ? { ok: true } : { ok: false, reason: 'must decode to 32 bytes' }
}

function bitcoinAddress(a: string): AddressCheck {
  try {
    // Mainnet only: P2PKH/P2SH base58check, bech32 `bc1q…` and bech32m `bc1p…`.
    Address(NETWORK).decode(a)
    return { ok: true }
  } catch {
    return { ok: false, reason: 'must be a Bitcoin mainnet address' }
  }
}

/** Is `address` a valid destination on `network`? */
export function checkWalletAddress(network: OnRampNetwork, address: string): AddressCheck {
  switch (network) {
    case 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM':
    case 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE':
      return evmAddress(address)
    case 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA':
      return solanaAddress(address)
    case 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN':
      return bitcoinAddress(address)
  }
}
