/**
 * The selectors of the older create_policy intents (hosted OpenAPI v1CreatePolicyIntent and
 * v1CreatePolicyIntentV2) as a condition of the policy language. The hosted service converts them
 * but documents no mapping, so Sigil's is this one, stored as the policy's `condition` (get_policy
 * shows it): every selector is one clause, and the clauses are joined by `&&` (a policy applies
 * when all its selectors hold; no selectors = always). A selector's `subject` is an expression of
 * the language (`activity.type`, `eth.tx.to`, …); a target is a value: digits are an int, `true`
 * and `false` a bool, anything else a string.
 *
 * | operator                       | clause                                     |
 * |--------------------------------|--------------------------------------------|
 * | EQUAL, NOT_EQUAL               | `(s) == t`, `(s) != t`                     |
 * | MORE_THAN(_OR_EQUAL), LESS_…   | `(s) > t`, `(s) >= t`, `(s) < t`, `(s) <= t` |
 * | IN, NOT_IN                     | `(s) in [t…]`, `!((s) in [t…])`           |
 * | CONTAINS                       | `(s).contains(t)`                          |
 * | CONTAINS_ONE, CONTAINS_ALL     | `(s).contains(t1) \|\| …`, `… && …` (none: false, true) |
 *
 * With V1 (one `target`), IN / NOT_IN / CONTAINS_ONE / CONTAINS_ALL take it as a list of one.
 */
import type { PolicyOperator } from '../../api/enums.js'
import { fieldError } from '../../api/errors.js'
import { type PolicyField, tryParseExpression } from './index.js'
import { checkExpression } from './definition.js'

/** One selector, V1 (`target`) or V2 (`targets`). */
export type Selector = { subject: string; operator: PolicyOperator; target?: string; targets?: string[] }

/** A target as a literal of the language. */
function literal(v: string): string {
  if (/^[0-9]+$/.test(v)) return v
  if (v === 'true' || v === 'false') return v
  return `'${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`
}

/** The clause of one selector. */
export function selectorClause(s: Selector): string {
  const subject = `(${s.subject})`
  const values = (s.targets ?? (s.target !== undefined ? [s.target] : [])).map(literal)
  const one = values[0] ?? "''"
  switch (s.operator) {
    case 'OPERATOR_EQUAL':
      return `${subject} == ${one}`
    case 'OPERATOR_NOT_EQUAL':
      return `${subject} != ${one}`
    case 'OPERATOR_MORE_THAN':
      return `${subject} > ${one}`
    case 'OPERATOR_MORE_THAN_OR_EQUAL':
      return `${subject} >= ${one}`
    case 'OPERATOR_LESS_THAN':
      return `${subject} < ${one}`
    case 'OPERATOR_LESS_THAN_OR_EQUAL':
      return `${subject} <= ${one}`
    case 'OPERATOR_IN':
      return `${subject} in [${values.join(', ')}]`
    case 'OPERATOR_NOT_IN':
      return `!(${subject} in [${values.join(', ')}])`
    case 'OPERATOR_CONTAINS':
      return `${subject}.contains(${one})`
    case 'OPERATOR_CONTAINS_ONE':
      return values.length === 0 ? 'false' : `(${values.map((v) => `${subject}.contains(${v})`).join(' || ')})`
    case 'OPERATOR_CONTAINS_ALL':
      return values.length === 0 ? 'true' : `(${values.map((v) => `${subject}.contains(${v})`).join(' && ')})`
  }
}

/**
 * The condition of a policy given by selectors, each clause parsed on its own first so that an
 * error names its selector (`parameters.selectors[i]`) and the clause it became.
 *
 * @throws INVALID_ARGUMENT when a selector's clause does not parse or names an unknown field
 */
export function selectorsToCondition(selectors: readonly Selector[], prefix: string): string {
  const clauses = selectors.map((s, i) => {
    const clause = selectorClause(s)
    const field = `${prefix}.selectors[${i}]`
    const r = tryParseExpression(clause, 'condition', field as PolicyField)
    if (!r.ok) throw fieldError('INVALID_ARGUMENT', field, `${r.error.description} (the selector reads as the condition \`${clause}\`)`)
    return clause
  })
  const condition = clauses.length === 1 ? (clauses[0] as string) : clauses.map((c) => `(${c})`).join(' && ')
  checkExpression(condition, 'condition', `${prefix}.selectors`)
  return condition
}
