/**
 * create_policy V1 / V2 selectors as a condition (src/service/policy/selectors.ts): one clause
 * per operator, literals typed from the target's text, every clause parsed and evaluated by the
 * policy language as the table in that module says.
 */
import { describe, expect, it } from 'vitest'
import { POLICY_OPERATORS } from '../../../../src/api/enumLists.js'
import { type Selector, selectorClause, selectorsToCondition } from '../../../../src/service/policy/selectors.js'
import { evaluate, parseExpression, type PolicyContext } from '../../../../src/service/policy/index.js'

const CONTEXT: PolicyContext = {
  approvers: [],
  credentials: [],
  activity: { type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2', params: { sign_with: '0xabc' } },
  now: new Date('2026-01-01T00:00:00Z'),
}
const holds = (s: Selector) => {
  const expr = parseExpression(selectorClause(s), 'condition')
  if (!expr) throw new Error('blank clause')
  const r = evaluate(expr, CONTEXT)
  if (!r.ok) throw new Error(r.error.message)
  return r.value
}

describe('selectors as clauses', () => {
  it('translates every operator of v1Operator to a clause that parses', () => {
    for (const operator of POLICY_OPERATORS) {
      const ordering = /THAN/.test(operator)
      const clause = selectorClause({ subject: ordering ? '3' : "['a', 'b']", operator, targets: [ordering ? '1' : 'a'] })
      expect(() => parseExpression(clause, 'condition'), `${operator}: ${clause}`).not.toThrow()
    }
  })

  it('evaluates each operator as its name says', () => {
    const p = 'activity.params'
    const tags = "['a', 'b']"
    const count = '3'
    expect(holds({ subject: 'activity.type', operator: 'OPERATOR_EQUAL', target: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' })).toBe(true)
    expect(holds({ subject: `${p}.sign_with`, operator: 'OPERATOR_NOT_EQUAL', target: '0xabc' })).toBe(false)
    expect(holds({ subject: count, operator: 'OPERATOR_MORE_THAN', target: '2' })).toBe(true)
    expect(holds({ subject: count, operator: 'OPERATOR_MORE_THAN_OR_EQUAL', target: '4' })).toBe(false)
    expect(holds({ subject: count, operator: 'OPERATOR_LESS_THAN', target: '4' })).toBe(true)
    expect(holds({ subject: count, operator: 'OPERATOR_LESS_THAN_OR_EQUAL', target: '2' })).toBe(false)
    expect(holds({ subject: `${p}.sign_with`, operator: 'OPERATOR_IN', targets: ['0x1', '0xabc'] })).toBe(true)
    expect(holds({ subject: `${p}.sign_with`, operator: 'OPERATOR_NOT_IN', targets: ['0x1', '0xabc'] })).toBe(false)
    expect(holds({ subject: tags, operator: 'OPERATOR_CONTAINS', target: 'b' })).toBe(true)
    expect(holds({ subject: tags, operator: 'OPERATOR_CONTAINS_ONE', targets: ['x', 'b'] })).toBe(true)
    expect(holds({ subject: tags, operator: 'OPERATOR_CONTAINS_ALL', targets: ['a', 'x'] })).toBe(false)
    expect(holds({ subject: tags, operator: 'OPERATOR_CONTAINS_ONE', targets: [] })).toBe(false)
    expect(holds({ subject: tags, operator: 'OPERATOR_CONTAINS_ALL', targets: [] })).toBe(true)
  })

  it('types targets: digits are ints, true/false bools, the rest strings with quotes escaped', () => {
    expect(selectorClause({ subject: 'x', operator: 'OPERATOR_EQUAL', target: '42' })).toBe('(x) == 42')
    expect(selectorClause({ subject: 'x', operator: 'OPERATOR_EQUAL', target: 'true' })).toBe('(x) == true')
    expect(selectorClause({ subject: 'x', operator: 'OPERATOR_EQUAL', target: "a'b\\c" })).toBe("(x) == 'a\\'b\\\\c'")
  })

  it('joins clauses with && (none: always) and names the selector that does not parse', () => {
    expect(selectorsToCondition([], 'parameters')).toBe('')
    expect(
      selectorsToCondition(
        [
          { subject: 'activity.type', operator: 'OPERATOR_EQUAL', target: 'A' },
          { subject: 'activity.params.sign_with', operator: 'OPERATOR_IN', targets: ['0xabc'] },
        ],
        'parameters',
      ),
    ).toBe("((activity.type) == 'A') && ((activity.params.sign_with) in ['0xabc'])")
    expect(() => selectorsToCondition([{ subject: 'activity.nope', operator: 'OPERATOR_EQUAL', target: 'A' }], 'parameters')).toThrow(
      /parameters\.selectors\[0\].*nope/,
    )
    expect(() => selectorsToCondition([{ subject: 'approvers', operator: 'OPERATOR_EQUAL', target: 'A' }], 'parameters')).toThrow(
      /parameters\.selectors\[0\]/,
    )
  })
})
