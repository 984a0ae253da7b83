/**
 * Parse a policy's expressions at create time: `condition`, `consensus` and the
 * optional `time`, each checked against its field's keywords. An absent or blank expression is
 * `undefined` (the field always holds). The result is a value: the parsed trees, or the first error
 * with a stable code, the field (`parameters.condition` …) and the position.
 */
import type { Expr } from './ast.js'
import { checkExpression } from './check.js'
import { type ParseError, ParseFailure, type PolicyField, PolicyLanguageError, parseError } from './errors.js'
import { MAX_EXPRESSION_LENGTH } from './limits.js'
import { parseTokens } from './parser.js'
import { CONDITION_KEYWORDS, CONSENSUS_KEYWORDS, type PolicyType, TIME_KEYWORDS } from './types/namespaces.js'

/** The expressions of a policy as stored (the create/update intents' `condition`, `consensus`, `time`). */
export type PolicyExpressions = { condition?: string | undefined; consensus?: string | undefined; time?: string | undefined }

/** A policy's parsed expressions; an absent one always holds. */
export type ParsedPolicy = { readonly condition?: Expr; readonly consensus?: Expr; readonly time?: Expr }

export type ParsePolicyResult = { ok: true; policy: ParsedPolicy } | { ok: false; error: ParseError }

/** Which expression of a policy: its keywords and its wire field name. */
export type ExpressionKind = 'condition' | 'consensus' | 'time'

const KEYWORDS: Record<ExpressionKind, Readonly<Record<string, PolicyType>>> = {
  condition: CONDITION_KEYWORDS,
  consensus: CONSENSUS_KEYWORDS,
  time: TIME_KEYWORDS,
}

const isBlank = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false
  }
  return true
}

/**
 * Parse one expression of the given kind. `undefined` for an absent or blank source.
 * @throws PolicyLanguageError with the `ParseError` when it does not parse or names an unknown field
 */
export function parseExpression(
  source: string | undefined,
  kind: ExpressionKind,
  field: PolicyField = `parameters.${kind}`,
): Expr | undefined {
  const r = tryParseExpression(source, kind, field)
  if (!r.ok) throw new PolicyLanguageError(r.error)
  return r.expr
}

/** Like `parseExpression`, the error as a value. */
export function tryParseExpression(
  source: string | undefined,
  kind: ExpressionKind,
  field: PolicyField = `parameters.${kind}`,
): { ok: true; expr: Expr | undefined } | { ok: false; error: ParseError } {
  if (source === undefined) return { ok: true, expr: undefined }
  if (typeof source !== 'string') return { ok: false, error: parseError('POLICY_TYPE', field, '', 0, 'must be a string') }
  if (source.length > MAX_EXPRESSION_LENGTH) {
    return {
      ok: false,
      error: parseError(
        'POLICY_TOO_LONG',
        field,
        '',
        0,
        `expression is ${source.length} characters, more than the limit of ${MAX_EXPRESSION_LENGTH}`,
      ),
    }
  }
  if (isBlank(source)) return { ok: true, expr: undefined }
  try {
    const expr = parseTokens(source)
    checkExpression(expr, KEYWORDS[kind])
    return { ok: true, expr }
  } catch (err) {
    if (err instanceof ParseFailure) return { ok: false, error: parseError(err.code, field, source, err.offset, err.message) }
    throw err
  }
}

/**
 * Parse a policy's `condition`, `consensus` and `time` (create_policy, create_policies,
 * update_policy). `fieldPrefix` names the fields in errors, e.g. `parameters.policies[2]` for
 * create_policies (default `parameters`).
 */
export function parsePolicy(input: PolicyExpressions, fieldPrefix = 'parameters'): ParsePolicyResult {
  const out: { condition?: Expr; consensus?: Expr; time?: Expr } = {}
  for (const kind of ['condition', 'consensus', 'time'] as const) {
    const r = tryParseExpression(input[kind], kind, `${fieldPrefix}.${kind}` as PolicyField)
    if (!r.ok) return r
    if (r.expr !== undefined) out[kind] = r.expr
  }
  return { ok: true, policy: out }
}
