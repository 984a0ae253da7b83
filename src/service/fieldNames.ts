import { SigilError } from '../api/errors.js'

/**
 * Runs `fn`; a SigilError naming bare fields (the chains and crypto layers say `path`,
 * `payload`, …) is rethrown with each field renamed to its request path, e.g.
 * `parameters.accounts[0].path` (wire-formats A3). Other errors pass through unchanged.
 */
export function namingFields<T>(rename: (field: string) => string, fn: () => T): T {
  try {
    return fn()
  } catch (e) {
    throw renamed(e, rename)
  }
}

/** The error with its field violations renamed (see {@link namingFields}); non-field errors as they are. */
export function renamed(e: unknown, rename: (field: string) => string): unknown {
  if (!(e instanceof SigilError) || e.fieldViolations.length === 0) return e
  const fieldViolations = e.fieldViolations.map((v) => ({ field: rename(v.field), description: v.description }))
  const fields = [...new Set(fieldViolations.map((v) => v.field))].join(', ')
  const description = e.fieldViolations[0]?.description ?? 'invalid'
  return new SigilError(e.code, `${fields}: ${description}`, { fieldViolations, details: e.details, cause: e })
}
