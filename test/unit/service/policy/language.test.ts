/** The policy language: grammar (the docs' table), parse errors with positions, bounds, evaluation semantics. */
import { describe, expect, it } from 'vitest'
import {
  type EvalResult,
  evaluate,
  MAX_DEPTH,
  MAX_EXPRESSION_LENGTH,
  type ParseError,
  PolicyLanguageError,
  parseExpression,
  parsePolicy,
  tryParseExpression,
} from '../../../../src/service/policy/index.js'
import type { PolicyContext } from '../../../../src/service/policy/types/namespaces.js'

const EMPTY: PolicyContext = { approvers: [], credentials: [], now: new Date('2026-03-10T15:00:00Z') }

function run(condition: string, context: PolicyContext = EMPTY, stepBudget?: number): EvalResult {
  const expr = parseExpression(condition, 'condition')
  if (expr === undefined) throw new Error('blank')
  return evaluate(expr, context, stepBudget === undefined ? {} : { stepBudget })
}

function value(condition: string, context: PolicyContext = EMPTY): boolean | string {
  const r = run(condition, context)
  return r.ok ? r.value : r.error.code
}

function parseErr(condition: string, kind: 'condition' | 'consensus' | 'time' = 'condition'): ParseError {
  const r = tryParseExpression(condition, kind)
  if (r.ok) throw new Error(`expected a parse error for ${condition}`)
  return r.error
}

describe('grammar (features/policies/language, "Grammar")', () => {
  it.each([
    ['true && false', false],
    ['true || false', true],
    ['!false', true],
    ['1 < 2', true],
    ['2 <= 2 && 3 > 2 && 3 >= 4', false],
    ["'a' != 'b'", true],
    ["'a' == 'a'", true],
    ['1 in [1, 2, 3]', true],
    ['4 in [1, 2, 3]', false],
    ['[1,2,3][0] == 1', true],
    ["'abc'[0] == 'a'", true],
    ['[1,2,3][0..2] == [1, 2]', true],
    ["'abc'[0..2] == 'ab'", true],
    ['[1,1,1].all(x, x == 1)', true],
    ['[1,2,3].all(x, x == 1)', false],
    ['[1,2,3].any(x, x == 1)', true],
    ['[1,2,3].contains(1)', true],
    ['[1,2,3].count() == 3', true],
    ['[1,2,3].count == 3', true],
    ['[1,2,3].filter(x, x == 1) == [1]', true],
    ['[1,2,3].filter(x, x > 1).count() == 2', true],
    ["[[1, 'a'], [2, 'b']].all(p, p[0] > 0 && p[1] != '')", true],
    ['[].count() == 0 && ![].any(x, x == 1) && [].all(x, x == 1)', true],
    ['(true || false) && !(1 == 2)', true],
    ['-1 < 0', true],
    ["'it\\'s' == 'it\\'s'", true],
    ["Timestamp('2025-01-01T00:00:00Z') < Timestamp('2025-01-01T00:00:00.5Z')", true],
    ["Timestamp('2025-01-01T00:00:00Z') == Timestamp('2025-01-01T00:00:00+00:00')", true],
    ["Timestamp('0050-01-01T00:00:00Z') < Timestamp('1950-01-01T00:00:00z')", true],
    ["Timestamp('2024-02-29T23:59:59.999999999-00:00') < Timestamp('2024-03-01T00:00:00Z')", true],
  ])('%s → %s', (expr, expected) => {
    expect(value(expr)).toBe(expected)
  })

  it('compares u256 wei values exactly (bigint)', () => {
    const ctx: PolicyContext = { ...EMPTY, eth: { tx: { value: 2n ** 255n + 1n } } }
    expect(value('eth.tx.value > 57896044618658097711785492504343953926634992332820282019728792003956564819968', ctx)).toBe(true)
    expect(value('eth.tx.value == 57896044618658097711785492504343953926634992332820282019728792003956564819969', ctx)).toBe(true)
    expect(value('eth.tx.value < 1000000000000000000', ctx)).toBe(false)
    expect(value('170141183460469231731687303715884105728 > 0')).toBe(true)
  })

  it('accepts numbers from the context as ints', () => {
    expect(value('eth.tx.chain_id == 1', { ...EMPTY, eth: { tx: { chain_id: 1 } } })).toBe(true)
    expect(value('eth.tx.chain_id == 1', { ...EMPTY, eth: { tx: { chain_id: 1.5 } } })).toBe('INVALID_VALUE')
  })

  it('binds variables of nested quantifiers, inner shadowing outer', () => {
    expect(value('[[1, 2], [3]].any(x, x.any(x, x == 3))')).toBe(true)
    expect(value('[1, 2].all(x, [x].all(y, y == x))')).toBe(true)
  })
})

describe('evaluation semantics', () => {
  it('a field the context lacks is MISSING_FIELD, with its position', () => {
    const r = run("wallet.id == 'w'")
    expect(r).toMatchObject({ ok: false, error: { code: 'MISSING_FIELD', offset: 0 } })
    const r2 = run("eth.tx.to == 'x'", { ...EMPTY, eth: {} })
    expect(r2).toMatchObject({ ok: false, error: { code: 'MISSING_FIELD', offset: 4 } })
  })

  it('does not short circuit (docs, "Policy evaluation"): an error in any operand is the result', () => {
    const ctx: PolicyContext = { ...EMPTY, wallet: { id: 'w', imported: false, exported: false, label: '' } }
    expect(value("wallet.id == 'w' || private_key.id == 'k'", ctx)).toBe('MISSING_FIELD')
    expect(value("false && private_key.id == 'k'", ctx)).toBe('MISSING_FIELD')
    expect(value("wallet.id == 'w'", ctx)).toBe(true)
  })

  it('== / != across types are false / true; ordering across types is TYPE_MISMATCH, never a throw', () => {
    const ctx: PolicyContext = {
      ...EMPTY,
      eth: { tx: { to: '0x1', chain_id: 1n, contract_call_args: { a: 'text', b: 5n, c: [1n], d: { e: true } } } },
    }
    expect(value("eth.tx.chain_id == '1'", ctx)).toBe(false)
    expect(value("eth.tx.chain_id != '1'", ctx)).toBe(true)
    expect(value("eth.tx.contract_call_args['a'] < 5", ctx)).toBe('TYPE_MISMATCH')
    expect(value("eth.tx.contract_call_args['b'] in eth.tx.contract_call_args['a']", ctx)).toBe('TYPE_MISMATCH')
    expect(value("eth.tx.contract_call_args['a'].count() == 1", ctx)).toBe('TYPE_MISMATCH')
    expect(value("eth.tx.contract_call_args['d']['e'] && true", ctx)).toBe(true)
    expect(value("eth.tx.contract_call_args['b'] && true", ctx)).toBe('TYPE_MISMATCH')
    expect(value("eth.tx.contract_call_args['c'] == [1]", ctx)).toBe(true)
    expect(value("eth.tx.contract_call_args['d'] == eth.tx.contract_call_args['d']", ctx)).toBe(true)
    expect(value("eth.tx.contract_call_args['b'].x == 1", ctx)).toBe('TYPE_MISMATCH')
    expect(value("eth.tx.contract_call_args['zz'] == 1", ctx)).toBe('MISSING_FIELD')
  })

  it('indexes and slices out of bounds are INDEX_OUT_OF_BOUNDS', () => {
    expect(value('[1, 2][2] == 1')).toBe('INDEX_OUT_OF_BOUNDS')
    expect(value('[1, 2][-1] == 1')).toBe('INDEX_OUT_OF_BOUNDS')
    expect(value("'abc'[1..4] == 'bc'")).toBe('INDEX_OUT_OF_BOUNDS')
    expect(value("'abc'[2..1] == ''")).toBe('INDEX_OUT_OF_BOUNDS')
    expect(value("'abc'[3..3] == ''")).toBe(true)
  })

  it('does not read inherited properties of context objects', () => {
    const ctx: PolicyContext = { ...EMPTY, eth: { tx: { contract_call_args: {} } } }
    expect(value("eth.tx.contract_call_args['constructor'] == 1", ctx)).toBe('MISSING_FIELD')
    expect(value("eth.tx.contract_call_args['__proto__'] == 1", ctx)).toBe('MISSING_FIELD')
  })

  it('a consensus over an empty approver list is false (any) / true (all), not an error', () => {
    const any = parseExpression("approvers.any(u, u.id == 'a')", 'consensus')
    const count = parseExpression('approvers.count() >= 2', 'consensus')
    if (any === undefined || count === undefined) throw new Error('blank')
    expect(evaluate(any, EMPTY)).toMatchObject({ ok: true, value: false })
    expect(evaluate(count, EMPTY)).toMatchObject({ ok: true, value: false })
  })

  it('time.now and CronSpan read the context time', () => {
    const t = parseExpression("time.now >= Timestamp('2026-03-01T00:00:00Z') && CronSpan('0 9 * * 1-5', '8h', 'America/New_York')", 'time')
    if (t === undefined) throw new Error('blank')
    expect(evaluate(t, { ...EMPTY, now: new Date('2026-03-10T13:00:00Z') })).toMatchObject({ ok: true, value: true }) // 09:00 EDT
    expect(evaluate(t, { ...EMPTY, now: new Date('2026-03-10T12:59:00Z') })).toMatchObject({ ok: true, value: false })
    expect(evaluate(t, { ...EMPTY, now: new Date('2026-03-10T20:59:59Z') })).toMatchObject({ ok: true, value: true })
    expect(evaluate(t, { ...EMPTY, now: new Date('2026-03-10T21:00:00Z') })).toMatchObject({ ok: true, value: false })
    // Before the US switch to daylight time (EST, UTC-5): 09:00 local is 14:00 UTC.
    expect(evaluate(t, { ...EMPTY, now: new Date('2026-03-03T13:30:00Z') })).toMatchObject({ ok: true, value: false })
    expect(evaluate(t, { ...EMPTY, now: new Date('2026-03-03T14:00:00Z') })).toMatchObject({ ok: true, value: true })
    const noClock = { approvers: [], credentials: [] } as unknown as PolicyContext
    expect(evaluate(t, noClock)).toMatchObject({ ok: false, error: { code: 'MISSING_FIELD' } })
  })

  it('CronSpan: a window crossing midnight, day-of-month OR day-of-week, windows up to 7 days', () => {
    const at = (expr: string, iso: string) => {
      const e = parseExpression(expr, 'time')
      if (e === undefined) throw new Error('blank')
      const r = evaluate(e, { ...EMPTY, now: new Date(iso) })
      return r.ok ? r.value : r.error.code
    }
    expect(at("CronSpan('0 22 * * *', '8h', 'UTC')", '2026-03-11T05:59:00Z')).toBe(true)
    expect(at("CronSpan('0 22 * * *', '8h', 'UTC')", '2026-03-11T06:00:00Z')).toBe(false)
    // 2026-03-01 is a Sunday: the 1st of the month OR a Monday.
    expect(at("CronSpan('0 0 1 * 1', '1h', 'UTC')", '2026-03-01T00:30:00Z')).toBe(true)
    expect(at("CronSpan('0 0 1 * 1', '1h', 'UTC')", '2026-03-02T00:30:00Z')).toBe(true)
    expect(at("CronSpan('0 0 1 * 1', '1h', 'UTC')", '2026-03-03T00:30:00Z')).toBe(false)
    expect(at("CronSpan('0 0 * * 0', '7d', 'Asia/Kolkata')", '2026-03-10T00:00:00Z')).toBe(true)
    expect(at("CronSpan('30 1,2 * 2-3 *', '1d2h3m', 'Europe/Berlin')", '2026-03-10T00:00:00Z')).toBe(true)
  })
})

describe('parse errors: stable code, field, position', () => {
  it.each([
    ["activity.typo == 'x'", 'POLICY_UNKNOWN_FIELD', 10],
    ["eth.tx.too == 'x'", 'POLICY_UNKNOWN_FIELD', 8],
    ["eth.tx.to.length == 'x'", 'POLICY_UNKNOWN_FIELD', 11],
    ["solana.tx.transfers.any(t, t.recipient == 'x')", 'POLICY_UNKNOWN_FIELD', 30],
    ["approvers.any(u, u.id == 'x')", 'POLICY_UNKNOWN_KEYWORD', 1],
    ["user.id == 'x'", 'POLICY_UNKNOWN_KEYWORD', 1],
    ['eth.tx.to = 1', 'POLICY_SYNTAX', 11],
    ['true & false', 'POLICY_SYNTAX', 6],
    ['\'a\' == "b"', 'POLICY_SYNTAX', 8],
    ["'unterminated", 'POLICY_SYNTAX', 1],
    ['(true', 'POLICY_SYNTAX', 6],
    ['true)', 'POLICY_SYNTAX', 5],
    ['1 < 2 < 3', 'POLICY_SYNTAX', 7],
    ['[1,2].map(x, x)', 'POLICY_UNKNOWN_FUNCTION', 7],
    ['Now() == 1', 'POLICY_UNKNOWN_FUNCTION', 1],
    ["Timestamp('2025-01-01T00:00:00-05:00') == Timestamp('2025-01-01T00:00:00Z')", 'POLICY_TYPE', 11],
    ["Timestamp('2025-02-30T00:00:00Z') == Timestamp('2025-01-01T00:00:00Z')", 'POLICY_TYPE', 11],
    ['1 + 1 == 2', 'POLICY_SYNTAX', 3],
    ["eth.tx.to < 'a'", 'POLICY_TYPE', 1],
    ["!'a'", 'POLICY_TYPE', 2],
    ['eth.tx.value', 'POLICY_TYPE', 1],
    ['1 in 2', 'POLICY_TYPE', 6],
    ["eth.tx.to.any(x, x == 'a')", 'POLICY_TYPE', 1],
    ['1a == 1', 'POLICY_SYNTAX', 2],
    ['eth.tx.value == 115792089237316195423570985008687907853269984665640564039457584007913129639936', 'POLICY_TYPE', 17],
    ["CronSpan('*/5 * * * *', '1h', 'UTC')", 'POLICY_TYPE', 10],
  ])('%s → %s at column %d', (expr, code, column) => {
    const e = parseErr(expr)
    expect(e.code).toBe(code)
    expect(e.column).toBe(column)
    expect(e.offset).toBe(column - 1)
    expect(e.field).toBe('parameters.condition')
    expect(e.message).toContain('parameters.condition: ')
    expect(e.message).toContain(`column ${column}`)
  })

  it('CronSpan argument errors name the argument', () => {
    expect(parseErr("CronSpan('0 9 * * 1-5', '8s', 'UTC')", 'time')).toMatchObject({ code: 'POLICY_TYPE', column: 25 })
    expect(parseErr("CronSpan('0 9 * * 1-5', '8d', 'UTC')", 'time')).toMatchObject({ code: 'POLICY_TYPE', column: 25 })
    expect(parseErr("CronSpan('0 9 * * 1-5', '8h', 'Mars/Olympus')", 'time')).toMatchObject({ code: 'POLICY_TYPE', column: 31 })
    expect(parseErr("CronSpan('0 9 * *', '8h', 'UTC')", 'time')).toMatchObject({ code: 'POLICY_TYPE', column: 10 })
  })

  it('gives line and column on multi-line expressions', () => {
    expect(parseErr("activity.type == 'x' &&\n  wallet.nope == 'y'")).toMatchObject({
      code: 'POLICY_UNKNOWN_FIELD',
      line: 2,
      column: 10,
      offset: 33,
    })
  })

  it('keywords belong to their field: consensus sees approvers and credentials, time sees time', () => {
    expect(parseErr("activity.type == 'x'", 'consensus')).toMatchObject({ code: 'POLICY_UNKNOWN_KEYWORD', field: 'parameters.consensus' })
    expect(parseErr("time.now > Timestamp('2025-01-01T00:00:00Z')", 'condition')).toMatchObject({ code: 'POLICY_UNKNOWN_KEYWORD' })
    expect(parseErr("approvers.any(u, u.id == 'x')", 'time')).toMatchObject({ code: 'POLICY_UNKNOWN_KEYWORD', field: 'parameters.time' })
    expect(parseErr("credentials.any(c, c.kind == 'x')", 'consensus')).toMatchObject({ code: 'POLICY_UNKNOWN_FIELD', column: 22 })
  })

  it('parsePolicy names the failing field, with a prefix for create_policies', () => {
    const r = parsePolicy({ condition: "activity.type == 'x'", consensus: 'approvers.nope' }, 'parameters.policies[3]')
    expect(r).toMatchObject({ ok: false, error: { field: 'parameters.policies[3].consensus', code: 'POLICY_UNKNOWN_FIELD', column: 11 } })
    const ok = parsePolicy({ condition: '', consensus: '   ', time: undefined })
    expect(ok).toEqual({ ok: true, policy: {} })
  })

  it("parseExpression throws the module's own typed error", () => {
    expect(() => parseExpression('1 <', 'condition')).toThrow(PolicyLanguageError)
    try {
      parseExpression('1 <', 'condition')
    } catch (err) {
      expect(err).toBeInstanceOf(PolicyLanguageError)
      expect((err as PolicyLanguageError).error).toMatchObject({ code: 'POLICY_SYNTAX', column: 4 })
    }
  })
})

describe('bounds', () => {
  it(`refuses an expression over ${MAX_EXPRESSION_LENGTH} characters (a 100 kB expression)`, () => {
    const big = `${"eth.tx.to == 'x' || ".repeat(5_000)}true`
    expect(big.length).toBeGreaterThan(100_000)
    expect(parseErr(big)).toMatchObject({ code: 'POLICY_TOO_LONG', offset: 0 })
    const atLimit = `'${'a'.repeat(MAX_EXPRESSION_LENGTH - 9)}' == 'a'`
    expect(atLimit.length).toBe(MAX_EXPRESSION_LENGTH)
    expect(tryParseExpression(atLimit, 'condition').ok).toBe(true)
    expect(parseErr(`${atLimit} `)).toMatchObject({ code: 'POLICY_TOO_LONG' })
  })

  it('10,000 nested parentheses are a clean POLICY_TOO_DEEP, not a stack overflow', () => {
    const e = parseErr(`${'('.repeat(10_000)}true${')'.repeat(10_000)}`)
    expect(e.code).toBe('POLICY_TOO_DEEP')
    expect(e.offset).toBeLessThanOrEqual(MAX_DEPTH + 1)
  })

  it.each([
    ['nested lists', `${'['.repeat(5_000)}1${']'.repeat(5_000)} == 1`],
    ['negations', `${'!'.repeat(10_000)}true`],
    ['index chains', `[1]${'[0]'.repeat(10_000)} == 1`],
    ['member chains', `activity${'.params'.repeat(5_000)} == 1`],
    ['nested quantifiers', `${'[1].any(x, '.repeat(3_000)}true${')'.repeat(3_000)}`],
  ])('deep %s are refused at parse time', (_name, expr) => {
    expect(parseErr(expr).code).toBe('POLICY_TOO_DEEP')
  })

  it('long && / || chains are n-ary: 2,000 alternatives parse and evaluate', () => {
    const expr = Array.from({ length: 2_000 }, (_, i) => `eth.tx.to == '0x${i.toString(16)}'`).join(' || ')
    expect(value(expr, { ...EMPTY, eth: { tx: { to: '0x7cf' } } })).toBe(true)
  })

  it('exhausting the step budget is an EVALUATION_BUDGET_EXCEEDED error', () => {
    const list = `[${Array.from({ length: 200 }, (_, i) => i).join(',')}]`
    const expr = `${list}.all(a, ${list}.all(b, ${list}.any(c, a == c)))`
    const r = run(expr, EMPTY, 100_000)
    expect(r).toMatchObject({ ok: false, error: { code: 'EVALUATION_BUDGET_EXCEEDED' } })
    expect(r.steps).toBeLessThanOrEqual(100_001)
  })

  it('a small budget stops a big context list', () => {
    const approvers = Array.from({ length: 5_000 }, (_, i) => ({ id: `u${i}`, tags: ['t'] }))
    const e = parseExpression("approvers.filter(u, u.tags.contains('t')).count() >= 2", 'consensus')
    if (e === undefined) throw new Error('blank')
    expect(evaluate(e, { ...EMPTY, approvers }, { stepBudget: 1_000 })).toMatchObject({
      ok: false,
      error: { code: 'EVALUATION_BUDGET_EXCEEDED' },
    })
    expect(evaluate(e, { ...EMPTY, approvers })).toMatchObject({ ok: true, value: true })
  })
})
