/**
 * Amounts in atomic units as bigints, shown and typed as decimal strings (no floating point):
 * `formatUnits(1500000000000000000n, 18)` is "1.5"; `parseAmount("1.5", 18)` is 1500000000000000000n.
 * Shared by the popup (what the user types and sees) and the background (the trust boundary).
 */

/** Atomic units as a decimal string of whole units, trailing zeros dropped ("1.5", "0", "0.000001"). */
export function formatUnits(value: bigint | string, decimals: number): string {
  const v = typeof value === 'bigint' ? value : BigInt(value)
  const negative = v < 0n
  const digits = (negative ? -v : v).toString().padStart(decimals + 1, '0')
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`
}

/** Atomic units shown with at most `maxFraction` decimals, rounded down, "<0.0001"-style when tiny but not zero. */
export function formatShort(value: bigint | string, decimals: number, maxFraction = 6): string {
  const v = typeof value === 'bigint' ? value : BigInt(value)
  if (decimals <= maxFraction || v === 0n) return formatUnits(v, decimals)
  const step = 10n ** BigInt(decimals - maxFraction)
  const cut = (v / step) * step
  if (cut === 0n) return `<${formatUnits(step, decimals)}`
  return formatUnits(cut, decimals)
}

/**
 * `value` atomic units rounded to at most `digits` significant digits, never cutting whole-unit
 * digits (12345.6 with 1 decimal stays 12346). `up` rounds up instead of to the nearest, so an
 * "at most" figure is never below the exact one.
 */
export function roundSignificant(value: bigint, decimals: number, digits = 4, up = false): bigint {
  if (value <= 0n) return value
  // Atomic digits to drop: those past the `digits`-th significant one, but never whole-unit digits.
  const drop = Math.max(0, Math.min(value.toString(10).length - digits, decimals))
  if (drop === 0) return value
  const step = 10n ** BigInt(drop)
  const rest = value % step
  const kept = value - rest
  return rest !== 0n && (up || rest * 2n >= step) ? kept + step : kept
}

/**
 * {@link roundSignificant} in whole units, trailing zeros dropped: 75_612_345_678_901n at 18
 * decimals is "0.00007561". Every fee the popup and the approval window show is written with it.
 */
export function significantText(value: bigint | string, decimals: number, digits = 4, up = false): string {
  return formatUnits(roundSignificant(typeof value === 'bigint' ? value : BigInt(value), decimals, digits, up), decimals)
}

/** The result of {@link parseAmount}: the atomic units, or why the text is not an amount. */
export type ParsedAmount = { ok: true; value: bigint } | { ok: false; reason: string }

/** A positive decimal amount typed by a person ("1", "0.25", ".5") → atomic units. */
export function parseAmount(text: string, decimals: number): ParsedAmount {
  const s = text.trim()
  const m = /^(\d{0,60})(?:\.(\d*))?$/.exec(s)
  if (s === '' || s === '.' || !m) return { ok: false, reason: 'Enter an amount such as 0.5' }
  const fraction = m[2] ?? ''
  if (fraction.length > decimals) return { ok: false, reason: `At most ${decimals} decimal places` }
  const value = BigInt(m[1] || '0') * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0')
  if (value <= 0n) return { ok: false, reason: 'The amount must be more than 0' }
  if (value >= 2n ** 256n) return { ok: false, reason: 'The amount is too large' }
  return { ok: true, value }
}
