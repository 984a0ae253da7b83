/**
 * The provider URL of an on-ramp purchase and its signature (service-interface.md
 * init_fiat_on_ramp): the query names the order; the signature is base64 HMAC-SHA256,
 * keyed by the provider secret, over the query string without its leading `?`.
 */
import { createHmac } from 'node:crypto'

const strip = (value: string, prefix: string) => (value.startsWith(prefix) ? value.slice(prefix.length) : value)

/** The order a provider URL carries (enum values as sent; prefixes are dropped in the URL). */
export type OnRampOrder = {
  transactionId: string
  walletAddress: string
  network: string
  cryptoCurrencyCode: string
  fiatCurrencyCode?: string | undefined
  fiatCurrencyAmount?: string | undefined
  paymentMethod?: string | undefined
  countryCode?: string | undefined
  countrySubdivisionCode?: string | undefined
  publishableApiKey?: string | undefined
  projectId?: string | undefined
  sandboxMode: boolean
}

/** The query string (no leading `?`), in a fixed order so that a signature is reproducible. */
export function orderQuery(o: OnRampOrder): string {
  const q = new URLSearchParams()
  q.set('walletAddress', o.walletAddress)
  q.set('network', strip(o.network, 'FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_'))
  q.set('cryptoCurrency', strip(o.cryptoCurrencyCode, 'FIAT_ON_RAMP_CRYPTO_CURRENCY_'))
  if (o.fiatCurrencyCode) q.set('fiatCurrency', strip(o.fiatCurrencyCode, 'FIAT_ON_RAMP_CURRENCY_'))
  if (o.fiatCurrencyAmount) q.set('fiatAmount', o.fiatCurrencyAmount)
  if (o.paymentMethod) q.set('paymentMethod', strip(o.paymentMethod, 'FIAT_ON_RAMP_PAYMENT_METHOD_'))
  if (o.countryCode) q.set('countryCode', o.countryCode.toUpperCase())
  if (o.countrySubdivisionCode) q.set('countrySubdivisionCode', o.countrySubdivisionCode.toUpperCase())
  if (o.publishableApiKey) q.set('publishableKey', o.publishableApiKey)
  if (o.projectId) q.set('projectId', o.projectId)
  q.set('sandbox', String(o.sandboxMode))
  q.set('onRampTransactionId', o.transactionId)
  return q.toString()
}

/** `base` with the order's query appended (keeping any query the base already has). */
export function buildOnRampUrl(base: string, o: OnRampOrder): string {
  const url = new URL(base)
  const query = orderQuery(o)
  url.search = url.search.length > 1 ? `${url.search.slice(1)}&${query}` : query
  return url.toString()
}

/** The query string of `url` without its leading `?` (empty when it has none). */
export function queryOf(url: string): string {
  return new URL(url).search.replace(/^\?/, '')
}

/** base64 HMAC-SHA256 of `query` keyed by the provider secret. */
export function signQuery(query: string, secret: Uint8Array): string {
  return createHmac('sha256', secret).update(query, 'utf8').digest('base64')
}
