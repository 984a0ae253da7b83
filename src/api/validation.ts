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
  let res: z.ZodSafeParseResult<z.output<S>>
  try {
    res = schema.safeParse(value, {
      // Missing values read "required" rather than zod's "expected string, received undefined".
      error: (iss) => (iss.code === 'invalid_type' && iss.input === undefined ? 'required' : undefined),
    })
  } catch (e) {
    // zod gathers the issues of nested values with spread calls: hundreds of thousands of
    // invalid elements overflow the stack. Request arrays are bounded and refused by length
    // before their elements are parsed (limits.ts, fields.ts boundedArray), so this is a
    // backstop for a schema that is not: the request is invalid; name its longest array.
    if (!(e instanceof RangeError)) throw e
    const violation = { field: fieldPath(fieldPrefix, longestArrayPath(value)), description: 'too many invalid elements' }
    return throwInvalid(violation, [violation])
  }
  if (res.success) return res.data
  const fieldViolations = toFieldViolations(res.error.issues, fieldPrefix)
  const first = fieldViolations[0] ?? { field: fieldPrefix || '(body)', description: 'invalid' }
  // An error body stays small: a request with many invalid elements names the first ones only.
  return throwInvalid(first, fieldViolations.slice(0, MAX_FIELD_VIOLATIONS))
}

/** Field violations listed in one error body at most. */
export const MAX_FIELD_VIOLATIONS = 100

/** The path of the longest array inside `value`, found without recursion (bodies may nest deeply). */
function longestArrayPath(value: unknown): PropertyKey[] {
  type Node = { value: unknown; seg: PropertyKey | undefined; parent: Node | undefined }
  let best: { length: number; node: Node | undefined } = { length: -1, node: undefined }
  const stack: Node[] = [{ value, seg: undefined, parent: undefined }]
  while (stack.length > 0) {
    const node = stack.pop()!
    const v = node.value
    if (Array.isArray(v)) {
      if (v.length > best.length) best = { length: v.length, node }
      // A huge array is itself the answer: its elements are not walked one by one.
      if (v.length <= 1000) v.forEach((x, i) => stack.push({ value: x, seg: i, parent: node }))
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) stack.push({ value: x, seg: k, parent: node })
    }
  }
  const path: PropertyKey[] = []
  for (let n = best.node; n?.seg !== undefined; n = n.parent) path.unshift(n.seg)
  return path
}

function throwInvalid(first: FieldViolation, fieldViolations: FieldViolation[]): never {
  throw new SigilError('INVALID_ARGUMENT', `${first.field}: ${first.description}`, { fieldViolations })
}
