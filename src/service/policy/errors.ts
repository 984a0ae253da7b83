/**
 * Policy language errors. Parse errors are values (`ParseError`), returned by `parsePolicy` with a
 * stable code, the field at fault and the position; evaluation errors are values too
 * (`EvalError`, an expression's `OUTCOME_ERROR`). `PolicyLanguageError` is the one exception type,
 * thrown only by `parseExpression` / `parsePolicyOrThrow` for callers that prefer to throw.
 */

/** Stable codes of parse-time failures. */
export const PARSE_ERROR_CODES = [
  /** The expression is longer than `MAX_EXPRESSION_LENGTH` or has more than `MAX_TOKENS` tokens. */
  'POLICY_TOO_LONG',
  /** Nesting deeper than `MAX_DEPTH`. */
  'POLICY_TOO_DEEP',
  /** A character or token the grammar does not have (double quotes, `=`, `&`, unterminated string…). */
  'POLICY_SYNTAX',
  /** An identifier that is not a keyword of this field (e.g. `approvers` in a condition). */
  'POLICY_UNKNOWN_KEYWORD',
  /** A field that the namespace's documented struct does not have. */
  'POLICY_UNKNOWN_FIELD',
  /** A function or method the language does not have, or called with the wrong arguments. */
  'POLICY_UNKNOWN_FUNCTION',
  /** A type error visible before evaluation (e.g. `!'a'`, a non-bool expression, a bad `Timestamp` literal). */
  'POLICY_TYPE',
] as const
export type ParseErrorCode = (typeof PARSE_ERROR_CODES)[number]

/** Which field of the policy an error is in, named as on the wire. */
export type PolicyField = 'parameters.condition' | 'parameters.consensus' | 'parameters.time'

/** A parse-time failure: a value, never thrown by `parsePolicy`. */
export type ParseError = {
  readonly code: ParseErrorCode
  /** The policy field at fault, e.g. `parameters.condition`. */
  readonly field: PolicyField
  /** 0-based offset into the expression (UTF-16 code units). */
  readonly offset: number
  /** 1-based line and column of `offset`. */
  readonly line: number
  readonly column: number
  /** What is wrong, without field or position. */
  readonly reason: string
  /** `<reason> (line L, column C)`: the description for `fieldError(code, field, description)`. */
  readonly description: string
  /** `<field>: <description>`: the same message `fieldError` builds. */
  readonly message: string
}

/** Stable codes of evaluation-time failures (an expression's outcome is then an error). */
export const EVAL_ERROR_CODES = [
  /** A field the context does not carry (e.g. `eth.tx` when the activity signs no Ethereum transaction). */
  'MISSING_FIELD',
  /** An index or slice outside the list or string. */
  'INDEX_OUT_OF_BOUNDS',
  /** An operator applied to values of types it does not take (`1 < 'a'`, `'a' in 'b'`). */
  'TYPE_MISMATCH',
  /** The step budget ran out. */
  'EVALUATION_BUDGET_EXCEEDED',
  /** A value out of the language's range (an integer beyond u256, a bad timestamp). */
  'INVALID_VALUE',
  /**
   * A field the activity carries but the service could not read (typed data or a transaction that
   * does not parse, an {@link Unreadable}): unlike `MISSING_FIELD`, a DENY policy erring so denies.
   */
  'UNREADABLE_FIELD',
] as const
export type EvalErrorCode = (typeof EVAL_ERROR_CODES)[number]

/**
 * Stands in the context for a namespace the activity carries but that could not be read (e.g.
 * `eth.eip_712` of typed data the signer refuses too, `eth.tx` of bytes that are no transaction):
 * reading it is `UNREADABLE_FIELD`, which a DENY policy never skips (decide.ts). `reason` says why,
 * without the payload.
 */
export class Unreadable {
  constructor(readonly reason: string) {}
}

/** An evaluation-time failure, with the offset of the sub-expression that failed. */
export type EvalError = { readonly code: EvalErrorCode; readonly offset: number; readonly message: string }

/** The one exception of this module: carries a `ParseError`. */
export class PolicyLanguageError extends Error {
  override name = 'PolicyLanguageError'
  readonly error: ParseError
  constructor(error: ParseError) {
    super(error.message)
    this.error = error
  }
}

/** Line and column (1-based) of an offset in `source`. */
export function lineColumn(source: string, offset: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  const end = Math.min(offset, source.length)
  for (let i = 0; i < end; i++) {
    if (source.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: offset - lineStart + 1 }
}

/** Build a `ParseError` with its position and wire message. */
export function parseError(code: ParseErrorCode, field: PolicyField, source: string, offset: number, reason: string): ParseError {
  const { line, column } = lineColumn(source, offset)
  const description = `${reason} (line ${line}, column ${column})`
  return { code, field, offset, line, column, reason, description, message: `${field}: ${description}` }
}

/** Internal: thrown inside the parser and caught at its entry point (never escapes the module). */
export class ParseFailure extends Error {
  readonly code: ParseErrorCode
  readonly offset: number
  constructor(code: ParseErrorCode, offset: number, description: string) {
    super(description)
    this.code = code
    this.offset = offset
  }
}
