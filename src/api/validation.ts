/**
 * Schema validation that throws the project's INVALID_ARGUMENT error naming the field
 * path (wire-formats A3: message and `google.rpc.BadRequest` fieldViolations).
 */
import type { z } from 'zod'
import { SigilError, type FieldViolation } from './errors.js'

/** Joins a prefix and a zod issue path: `parameters.rootUsers[0].userName`. */
export function fieldPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`
    else out += out === '' ? String(seg) : `.${String(seg)}`
  }
  return out === '' ? '(body)' : out
}

/** Problem text of one issue; a missing value reads `required`. */
function problemOf(issue: z.core.$ZodIssue): string {
  return issue.message
}

/** Turns zod issues into field violations under `prefix`. */
export function toFieldViolations(issues: readonly z.core.$ZodIssue[], prefix: string): FieldViolation[] {
  return issues.map((issue) => ({ field: fieldPath(prefix, issue.path), description: problemOf(issue) }))
}

/**
 * Parses `value` or throws `SigilError('INVALID_ARGUMENT', '<prefix.path>: <problem>')`
 * with every issue in `fieldViolations` (the message names the first one).
 * @example parseOrThrow(params, body.parameters, 'parameters')
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, fieldPrefix: string): z.output<S> {
  const res = schema.safeParse(value, {
    // Missing values read "required" rather than zod's "expected string, received undefined".
    error: (iss) => (iss.code === 'invalid_type' && iss.input === undefined ? 'required' : undefined),
  })
  if (res.success) return res.data
  const fieldViolations = toFieldViolations(res.error.issues, fieldPrefix)
  const first = fieldViolations[0] ?? { field: fieldPrefix || '(body)', description: 'invalid' }
  return throwInvalid(first, fieldViolations)
}

function throwInvalid(first: FieldViolation, fieldViolations: FieldViolation[]): never {
  throw new SigilError('INVALID_ARGUMENT', `${first.field}: ${first.description}`, { fieldViolations })
}
