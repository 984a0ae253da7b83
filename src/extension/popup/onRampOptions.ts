/**
 * Choices offered by the buy form. Types come from the service's enums (src/api/enums.ts,
 * type-only so zod stays out of the popup); the background validates the submitted form with
 * the service's own schema (src/api/operations/init_fiat_on_ramp.ts).
 */
import type { OnRampCryptoCurrency, OnRampFiatCurrency, OnRampNetwork, OnRampPaymentMethod, OnRampProvider } from '../../api/enums'

/** Providers (brand-neutral names). */
export const PROVIDERS: Array<[OnRampProvider, string]> = [
  ['FIAT_ON_RAMP_PROVIDER_ALPHA', 'Provider Alpha'],
  ['FIAT_ON_RAMP_PROVIDER_BETA', 'Provider Beta'],
]

/** Networks, the cryptos each sells, and which account formats can receive. */
export const NETWORKS: Array<{ network: OnRampNetwork; label: string; cryptos: OnRampCryptoCurrency[]; formats: RegExp }> = [
  {
    network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM',
    label: 'Ethereum',
    cryptos: ['FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH', 'FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC'],
    formats: /^ADDRESS_FORMAT_ETHEREUM$/,
  },
  {
    network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE',
    label: 'Base',
    cryptos: ['FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH', 'FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC'],
    formats: /^ADDRESS_FORMAT_ETHEREUM$/,
  },
  {
    network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA',
    label: 'Solana',
    cryptos: ['FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL', 'FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC'],
    formats: /^ADDRESS_FORMAT_SOLANA$/,
  },
  {
    network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN',
    label: 'Bitcoin',
    cryptos: ['FIAT_ON_RAMP_CRYPTO_CURRENCY_BTC'],
    formats: /^ADDRESS_FORMAT_BITCOIN_MAINNET_/,
  },
]

/** Fiat currencies offered (a subset of the interface's list). */
export const FIATS: OnRampFiatCurrency[] = [
  'FIAT_ON_RAMP_CURRENCY_USD',
  'FIAT_ON_RAMP_CURRENCY_EUR',
  'FIAT_ON_RAMP_CURRENCY_GBP',
  'FIAT_ON_RAMP_CURRENCY_CAD',
  'FIAT_ON_RAMP_CURRENCY_AUD',
  'FIAT_ON_RAMP_CURRENCY_CHF',
  'FIAT_ON_RAMP_CURRENCY_SEK',
  'FIAT_ON_RAMP_CURRENCY_BRL',
]

/** Payment methods offered. */
export const PAYMENT_METHODS: Array<[OnRampPaymentMethod, string]> = [
  ['FIAT_ON_RAMP_PAYMENT_METHOD_CREDIT_DEBIT_CARD', 'Card'],
  ['FIAT_ON_RAMP_PAYMENT_METHOD_SEPA_BANK_TRANSFER', 'SEPA bank transfer'],
  ['FIAT_ON_RAMP_PAYMENT_METHOD_ACH_BANK_ACCOUNT', 'ACH bank account'],
  ['FIAT_ON_RAMP_PAYMENT_METHOD_GBP_BANK_TRANSFER', 'GBP bank transfer'],
  ['FIAT_ON_RAMP_PAYMENT_METHOD_PIX_INSTANT_PAYMENT', 'PIX'],
]

/** The last word of an enum value (`FIAT_ON_RAMP_CURRENCY_USD` → `USD`). */
export function short(value: string): string {
  return value.slice(value.lastIndexOf('_') + 1)
}
