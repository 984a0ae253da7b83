/** Text for amounts and times in approval summaries (built in the background; the window shows it as is). */

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
