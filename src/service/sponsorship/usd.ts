/**
 * USD amounts of gas sponsorship as integer micro-USD (1 USD = 1,000,000): parsed from and
 * formatted to the decimal strings of the wire, and converted from a fee in the native coin's
 * smallest unit at the network's operator-set price. Conversions round up, so a limit is never
 * exceeded by rounding.
 */

import { USD_AMOUNT } from '../../api/operations/upsert_gas_usage_config.js'

const MICRO = 1_000_000n

/** Micro-USD of a decimal USD string of the wire (`USD_AMOUNT`); undefined when it is not one. */
export function parseUsd(text: string): bigint | undefined {
  const m = USD_AMOUNT.exec(text)
  if (!m) return undefined
  const fraction = (m[2] ?? '.').slice(1).padEnd(6, '0')
  return BigInt(m[1] as string) * MICRO + BigInt(fraction)
}

/** The decimal USD string of a micro-USD amount: `5`, `0.25`, `12.000001` (no trailing zeros). */
export function formatUsd(micro: bigint): string {
  const whole = micro / MICRO
  const fraction = (micro % MICRO).toString().padStart(6, '0').replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole.toString()
}

const PRICE = /^([0-9]+)(?:\.([0-9]+))?$/

/**
 * Micro-USD (rounded up) of `amount` smallest units of a coin with `decimals` decimals priced at
 * `priceUsd` (a non-negative decimal string) per whole coin; undefined when the price is not one.
 */
export function nativeToMicroUsd(amount: bigint, decimals: number, priceUsd: string): bigint | undefined {
  const m = PRICE.exec(priceUsd)
  if (!m || amount < 0n) return undefined
  const fraction = m[2] ?? ''
  const numerator = amount * BigInt(`${m[1]}${fraction}`) * MICRO
  const denominator = 10n ** BigInt(decimals + fraction.length)
  return (numerator + denominator - 1n) / denominator
}
