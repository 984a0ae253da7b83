/**
 * Choices offered by the buy form, drawn from the interface's lists (src/api/enumLists.ts, no
 * zod, so none in the popup); the background validates the submitted form with the service's
 * own schema (src/api/operations/init_fiat_on_ramp.ts).
 */
import {
  ON_RAMP_PROVIDERS,
  type OnRampCryptoCurrency,
  type OnRampFiatCurrency,
  type OnRampNetwork,
  type OnRampPaymentMethod,
  type OnRampProvider,
  onRampCurrenciesOn,
} from '../../api/enumLists'

const PROVIDER_LABELS: Record<OnRampProvider, string> = {
  FIAT_ON_RAMP_PROVIDER_ALPHA: 'Provider Alpha',
  FIAT_ON_RAMP_PROVIDER_BETA: 'Provider Beta',
}

/** Providers (brand-neutral names), every one of the interface's. */
export const PROVIDERS: Array<[OnRampProvider, string]> = ON_RAMP_PROVIDERS.map((p) => [p, PROVIDER_LABELS[p]])

/** Networks in the form's order, which account formats can receive on each, and the cryptos each carries. */
export const NETWORKS: Array<{ network: OnRampNetwork; label: string; cryptos: OnRampCryptoCurrency[]; formats: RegExp }> = (
  [
    { network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM', label: 'Ethereum', formats: /^ADDRESS_FORMAT_ETHEREUM$/ },
    { network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE', label: 'Base', formats: /^ADDRESS_FORMAT_ETHEREUM$/ },
    { network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA', label: 'Solana', formats: /^ADDRESS_FORMAT_SOLANA$/ },
    { network: 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN', label: 'Bitcoin', formats: /^ADDRESS_FORMAT_BITCOIN_MAINNET_/ },
  ] as const satisfies ReadonlyArray<{ network: OnRampNetwork; label: string; formats: RegExp }>
).map((n) => ({ ...n, cryptos: onRampCurrenciesOn(n.network) }))

/** Fiat currencies offered (a subset of the interface's list). */
export const FIATS = [
  'FIAT_ON_RAMP_CURRENCY_USD',
  'FIAT_ON_RAMP_CURRENCY_EUR',
  'FIAT_ON_RAMP_CURRENCY_GBP',
  'FIAT_ON_RAMP_CURRENCY_CAD',
  'FIAT_ON_RAMP_CURRENCY_AUD',
  'FIAT_ON_RAMP_CURRENCY_CHF',
  'FIAT_ON_RAMP_CURRENCY_SEK',
  'FIAT_ON_RAMP_CURRENCY_BRL',
] as const satisfies readonly OnRampFiatCurrency[]

/** Payment methods offered (a subset of the interface's list), with their labels. */
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
