/**
 * What the built-in sandbox provider delivers for an order. It moves real crypto only on the
 * service's dev networks, and only through a `deliver` capability the composition root hands it
 * when dev tools run (src/server wires the dev faucet); without it, or for any other network or
 * coin, the sandbox says "nothing is delivered" and the order never reads completed.
 *
 * The amount: the order's fiat amount at a fixed sandbox rate — every fiat currency counts as US
 * dollars at par, one native coin costs the network's `nativeUsd` (SIGIL_NATIVE_USD) or else
 * {@link SANDBOX_USD_PER_COIN} — capped at {@link SANDBOX_MAX_FIAT} per order, so one order cannot
 * drain the dev funder.
 */
import type { Network } from '../../chains/networks.js'
import type { OnRampTransactionRow } from '../store/onramp.js'

/** Sends `amount` whole native units to `address` on the dev network; resolves with the mined transaction's hash. */
export type SandboxDeliver = (network: Network, address: string, amount: string) => Promise<{ txHash: string }>

/** The sandbox's fixed price of one native coin in US dollars, when the network sets none. */
export const SANDBOX_USD_PER_COIN: Readonly<Record<string, string>> = { ETH: '2000', SOL: '100' }

/** Most fiat (any currency, counted as US dollars) one sandbox order delivers the value of. */
export const SANDBOX_MAX_FIAT = 1000

/** The on-ramp network each family of dev network stands in for, with the coin it carries. */
const STAND_INS: Record<string, { family: Network['family']; coin: string }> = {
  FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM: { family: 'evm', coin: 'ETH' },
  FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA: { family: 'solana', coin: 'SOL' },
}

export type SandboxQuote =
  | {
      deliverable: true
      network: Network
      /** Whole native units, exact (at most the network's decimals). */
      amount: string
      symbol: string
      /** US dollars per coin used. */
      rate: string
      /** The order asked for more than {@link SANDBOX_MAX_FIAT}; `amount` is the cap's worth. */
      capped: boolean
    }
  | { deliverable: false; reason: string }

/** The dev network an on-ramp network is delivered on, among `networks`; undefined when none. */
export function devNetworkFor(networks: readonly Network[], onRampNetwork: string): Network | undefined {
  const standIn = STAND_INS[onRampNetwork]
  if (!standIn) return undefined
  return networks.find((n) => n.dev && n.family === standIn.family && n.nativeSymbol === standIn.coin)
}

/** What completing `order` delivers, given the service's networks and whether it may deliver at all. */
export function sandboxQuote(order: OnRampTransactionRow, networks: readonly Network[], canDeliver: boolean): SandboxQuote {
  if (!canDeliver) return { deliverable: false, reason: 'this service runs without dev tools, so the sandbox cannot send crypto' }
  const network = devNetworkFor(networks, order.network)
  const coin = order.crypto_currency.replace('FIAT_ON_RAMP_CRYPTO_CURRENCY_', '')
  const place = order.network.replace('FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_', '').toLowerCase()
  if (!network) return { deliverable: false, reason: `this service has no dev network standing in for ${place}` }
  if (coin !== network.nativeSymbol)
    return { deliverable: false, reason: `the sandbox delivers only ${network.nativeSymbol} on ${network.name}, not ${coin}` }
  if (!order.fiat_amount) return { deliverable: false, reason: 'the order names no amount' }
  const rate = network.nativeUsd ?? SANDBOX_USD_PER_COIN[network.nativeSymbol]
  if (!rate) return { deliverable: false, reason: `the sandbox has no rate for ${network.nativeSymbol}` }
  const fiat = decimal(order.fiat_amount)
  const cap = decimal(String(SANDBOX_MAX_FIAT))
  const capped = compare(fiat, cap) > 0
  const units = toUnits(capped ? cap : fiat, decimal(rate), network.nativeDecimals)
  if (units <= 0n) return { deliverable: false, reason: 'the amount is too small to deliver' }
  return { deliverable: true, network, amount: formatUnits(units, network.nativeDecimals), symbol: network.nativeSymbol, rate, capped }
}

type Decimal = { digits: bigint; scale: number }

function decimal(text: string): Decimal {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text.trim())
  if (!m) return { digits: 0n, scale: 0 }
  const fraction = m[2] ?? ''
  return { digits: BigInt(`${m[1]}${fraction}`), scale: fraction.length }
}

function compare(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale)
  const x = a.digits * 10n ** BigInt(scale - a.scale)
  const y = b.digits * 10n ** BigInt(scale - b.scale)
  return x === y ? 0 : x > y ? 1 : -1
}

/** fiat ÷ rate in base units of `decimals`, rounded down. */
function toUnits(fiat: Decimal, rate: Decimal, decimals: number): bigint {
  if (rate.digits === 0n) return 0n
  // (f / 10^fs) / (r / 10^rs) × 10^d = f × 10^(rs + d) / (r × 10^fs)
  return (fiat.digits * 10n ** BigInt(rate.scale + decimals)) / (rate.digits * 10n ** BigInt(fiat.scale))
}

/** Base units → whole units, without trailing zeros ("0.025"). */
export function formatUnits(units: bigint, decimals: number): string {
  const whole = units / 10n ** BigInt(decimals)
  const fraction = (units % 10n ** BigInt(decimals)).toString().padStart(decimals, '0').replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : whole.toString()
}
