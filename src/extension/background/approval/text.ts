/** Text for amounts, times and fees in approval summaries (built in the background; the window shows it as is). */
import { formatUnits } from 'viem'
import { roundSignificant, significantText } from '../../amounts'
import type { FieldRow } from '../../protocol/approvalView'

const MAX_UINT256 = (1n << 256n) - 1n
const MAX_UINT160 = (1n << 160n) - 1n

/**
 * Whether an approved amount is "unlimited": max uint256, anything ≥ 2^255 (no token has that
 * much), or Permit2's max uint160 when `bits` is 160.
 */
export function isUnlimited(amount: bigint, bits: 160 | 256 = 256): boolean {
  return amount >= 1n << 255n || amount === MAX_UINT256 || (bits === 160 && amount === MAX_UINT160)
}

/** The raw amount, prefixed with "unlimited" when {@link isUnlimited}. */
export function amountText(amount: bigint, bits: 160 | 256 = 256): string {
  return isUnlimited(amount, bits) ? `unlimited (${amount})` : amount.toString(10)
}

/** A Unix time in seconds as `YYYY-MM-DD HH:MM:SS UTC (seconds)`; "never" past year 275760. */
export function timeText(seconds: bigint): string {
  if (seconds === 0n) return '0 (1970-01-01, already passed)'
  const ms = seconds * 1000n
  if (ms > 8_640_000_000_000_000n) return `never (${seconds})`
  const iso = new Date(Number(ms)).toISOString()
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC (${seconds})`
}

/** Per-gas prices a transaction pays: EIP-1559 (max and priority) or a legacy gas price, in wei. */
export type GasPrice = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } | { gasPrice: bigint }

/** What a transaction can cost, in wei, and the network's native unit to say it in. */
export type FeeFacts = {
  valueWei: bigint
  /** Null when the gas could not be estimated. */
  gasLimit: bigint | null
  price: GasPrice
  /** The expected fee (estimated gas × effective price) when the transaction was simulated. */
  estimatedWei?: bigint | null
  native: { symbol: string; decimals: number }
}

/** `wei` per gas in gwei with at most 4 significant digits, e.g. "1.5 gwei", "0.1235 gwei". */
export function gweiText(wei: bigint): string {
  return `${significantText(wei, 9)} gwei`
}

/**
 * The approval window's fee rows: the per-gas prices in gwei, the gas limit,
 * the estimated fee when simulated, the most the fee can be (gas limit × max fee) and the total
 * (value + that fee) in the native unit. No fiat line: Sigil has no price source.
 * Fees are rounded to 4 significant digits with their unit (the estimate to the nearest, the
 * maximum up, so "at most" holds). The total is rounded consistently: exactly the value plus the
 * maximum fee as shown, so it adds up on screen and is never below what the send can cost.
 */
export function feeRows(f: FeeFacts): FieldRow[] {
  const unit = (wei: bigint) => `${formatUnits(wei, f.native.decimals)} ${f.native.symbol}`
  const fee = (wei: bigint) => `${significantText(wei, f.native.decimals)} ${f.native.symbol}`
  const perGas = 'gasPrice' in f.price ? f.price.gasPrice : f.price.maxFeePerGas
  const rows: FieldRow[] =
    'gasPrice' in f.price
      ? [['Gas price', gweiText(f.price.gasPrice)]]
      : [
          ['Max fee per gas', gweiText(f.price.maxFeePerGas)],
          ['Priority fee per gas', gweiText(f.price.maxPriorityFeePerGas)],
        ]
  rows.push(['Gas limit', f.gasLimit === null ? 'unknown (the gas could not be estimated)' : f.gasLimit.toString(10)])
  if (f.estimatedWei !== undefined && f.estimatedWei !== null) rows.push(['Estimated fee', `≈ ${fee(f.estimatedWei)}`])
  if (f.gasLimit === null) {
    rows.push(['Total', `${unit(f.valueWei)} + the network fee (unknown)`])
    return rows
  }
  const maxFee = roundSignificant(f.gasLimit * perGas, f.native.decimals, 4, true)
  rows.push(['Max network fee', `at most ${unit(maxFee)}`])
  rows.push(['Total (at most)', `${unit(f.valueWei + maxFee)} (value + max network fee)`])
  return rows
}
