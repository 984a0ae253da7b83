/**
 * The input of Sign In With Solana (`solana:signIn`, github.com/phantom/sign-in-with-solana) as
 * Sigil accepts it: every field optional, each a non-empty single line of at most a fixed length
 * (a line break would let a site forge the fields that follow it in the signed text), times in
 * RFC 3339, at most {@link SIGN_IN_MAX_RESOURCES} resources. The inpage wallet checks an input with
 * {@link signInInputProblem} before sending it; the background checks it again (dapp/solana/signIn.ts).
 * Dependency-free: ships in the inpage bundle.
 */

/** The string fields of a sign-in input, in the order they appear in the signed text, with their longest length. */
export const SIGN_IN_FIELDS = {
  domain: 256,
  address: 44,
  statement: 1024,
  uri: 2048,
  version: 16,
  chainId: 64,
  nonce: 128,
  issuedAt: 64,
  expirationTime: 64,
  notBefore: 64,
  requestId: 256,
} as const

/** A string field of the sign-in input. */
export type SignInField = keyof typeof SIGN_IN_FIELDS

/** The most resources an input may list, and the longest resource. */
export const SIGN_IN_MAX_RESOURCES = 32
export const SIGN_IN_MAX_RESOURCE_CHARS = 2048

/** The sign-in input: the Wallet Standard `SolanaSignInInput` (version 1.0.0 of the feature). */
export type SolanaSignInFields = { [K in SignInField]?: string | undefined } & { resources?: string[] | undefined }

/** The time fields, which must be RFC 3339 date-times. */
export const SIGN_IN_TIME_FIELDS = ['issuedAt', 'expirationTime', 'notBefore'] as const

/** Control characters (line breaks included), which no field may contain. */
export const SIGN_IN_CONTROL = /[\u0000-\u001f\u007f]/

/** An RFC 3339 date-time (`2024-01-01T00:00:00Z`, fractions and offsets allowed). */
export const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})$/

/** What is wrong with one string `value` of field `name`, or null. */
function stringProblem(name: string, value: unknown, max: number): string | null {
  if (typeof value !== 'string') return `${name} must be a string`
  if (value === '') return `${name} must not be empty (leave it out instead)`
  if (value.length > max) return `${name} is longer than ${max} characters`
  if (SIGN_IN_CONTROL.test(value)) return `${name} must be one line without control characters`
  return null
}

/**
 * The first problem with a sign-in input, naming the field, or null when it is acceptable. Fields
 * the feature does not define are not read. `undefined` (no input) is an empty input.
 */
export function signInInputProblem(input: unknown): string | null {
  if (input === undefined) return null
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return 'the sign-in input must be an object'
  const fields = input as Record<string, unknown>
  for (const [name, max] of Object.entries(SIGN_IN_FIELDS)) {
    if (fields[name] === undefined) continue
    const problem = stringProblem(name, fields[name], max)
    if (problem) return problem
  }
  for (const name of SIGN_IN_TIME_FIELDS) {
    const value = fields[name]
    if (typeof value === 'string' && (!RFC3339.test(value) || !Number.isFinite(Date.parse(value)))) {
      return `${name} must be an RFC 3339 date-time (like 2024-01-01T00:00:00Z)`
    }
  }
  const resources = fields['resources']
  if (resources !== undefined) {
    if (!Array.isArray(resources)) return 'resources must be an array of strings'
    if (resources.length > SIGN_IN_MAX_RESOURCES) return `resources lists more than ${SIGN_IN_MAX_RESOURCES} entries`
    for (const [i, r] of resources.entries()) {
      const problem = stringProblem(`resources[${i}]`, r, SIGN_IN_MAX_RESOURCE_CHARS)
      if (problem) return problem
    }
  }
  return null
}
