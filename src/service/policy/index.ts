/**
 * The policy language: a pure module, no database or HTTP. Parse at create time
 * with `parsePolicy`, build a `PolicyContext` per activity and vote, and `decide`.
 *
 * @example
 * const p = parsePolicy({ condition: "eth.tx.to == '0xabc…'", consensus: "approvers.any(u, u.id == 'bob')" })
 * if (!p.ok) throw fieldError('INVALID_ARGUMENT', p.error.field, p.error.description) // "parameters.condition: … (line 1, column 8)"
 * const d = decide([{ policyId, effect: 'EFFECT_ALLOW', parsed: p.policy }], context, { rootQuorum: false })
 */
export { activityKind, activityResourceAction, ROOT_QUORUM_ACTIVITY_TYPES } from './activity.js'
export type { CompareOp, Expr, Quantifier } from './ast.js'
export {
  type DecideOptions,
  type Decision,
  type DecisionPolicy,
  type DecisionReason,
  decide,
  evaluatePolicy,
  type PolicyEvaluation,
  type PolicyOutcome,
} from './decide.js'
export {
  EVAL_ERROR_CODES,
  type EvalError,
  type EvalErrorCode,
  PARSE_ERROR_CODES,
  type ParseError,
  type ParseErrorCode,
  type PolicyField,
  PolicyLanguageError,
  Unreadable,
} from './errors.js'
export { type EvalResult, type EvaluateOptions, evaluate, PolicyTimestamp, type Value } from './evaluate.js'
export { DEFAULT_STEP_BUDGET, MAX_DEPTH, MAX_EXPRESSION_LENGTH, MAX_TOKENS } from './limits.js'
export {
  type ExpressionKind,
  type ParsedPolicy,
  type ParsePolicyResult,
  type PolicyExpressions,
  parseExpression,
  parsePolicy,
  tryParseExpression,
} from './policy.js'
export type * from './types/namespaces.js'
