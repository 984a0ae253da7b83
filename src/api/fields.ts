/**
 * Field-level schemas shared by many operations: numbers sent as strings, bounded
 * counts (service-interface.md "Resources and their fields", "Errors" 3, "Limits";
 * wire-formats B7). Each carries its own message so `parseOrThrow` names the field.
 */
import { z } from 'zod'

const DIGITS = /^\d+$/
const DECIMAL = /^\d+(\.\d+)?$/

/** A non-negative integer sent as a string of decimal digits (`expirationSeconds`, `timestampMs`, `limit`). */
export const DigitString = z.string().regex(DIGITS, { error: 'must be a string of decimal digits' })

/** `expirationSeconds` in general: digits. */
export const ExpirationSeconds = DigitString

/** OTP `expirationSeconds`: digits, at most 600 (service-interface.md "Errors" 3, "Limits"). */
export const OtpExpirationSeconds = DigitString.refine((s) => Number(s) <= 600, {
  error: 'must not exceed 600',
})

/** OTP code length: an integer 6..9 (wire-formats B7: default 9). */
export const OtpLength = z
  .number()
  .int({ error: 'must be an integer' })
  .min(6, { error: 'must be between 6 and 9' })
  .max(9, { error: 'must be between 6 and 9' })

/** Pagination `limit`: digits, 1..100 (wire-formats B7). */
export const PageLimit = DigitString.refine((s) => Number(s) >= 1 && Number(s) <= 100, {
  error: 'must be between 1 and 100',
})

/** BIP-39 mnemonic length (wire-formats B7; address-formats.md "Seeds"). */
export const MNEMONIC_LENGTHS = [12, 15, 18, 21, 24] as const
export const MnemonicLength = z.number().refine((n) => (MNEMONIC_LENGTHS as readonly number[]).includes(n), {
  error: 'must be one of 12, 15, 18, 21, 24',
})

/** A quorum threshold: integer ≥ 1. */
export const Threshold = z.number().int({ error: 'must be an integer' }).min(1, { error: 'must be at least 1' })

/** `fiatCurrencyAmount`: a decimal string greater than 20 (service-interface.md init_fiat_on_ramp). */
export const FiatAmount = z
  .string()
  .regex(DECIMAL, { error: 'must be a decimal number string' })
  .refine((s) => Number(s) > 20, { error: 'must be greater than 20' })

/**
 * An array of at most `max` elements (the limits and their sources are in limits.ts).
 * Every array of a request is one of these. The length check is the array's first check, and zod
 * runs leading size checks before it parses any element: an oversized array is refused with one
 * issue, `must have at most <max> items`, at the array's own path, whatever its elements are
 * (test/unit/api/limits.test.ts holds zod to this). Add `.min()` after it, never a refinement before.
 */
export function boundedArray<T extends z.ZodType>(item: T, max: number): z.ZodArray<T> {
  return z.array(item).max(max, { error: `must have at most ${max} items` })
}

/** Array of ids in a response (request arrays are {@link boundedArray}s). */
export const StringArray = z.array(z.string())
