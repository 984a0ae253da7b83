/**
 * Property tests: random token streams and random well-formed expressions never throw out of parse
 * or evaluate; failures are the module's own values (`ParseError`, `EvalError`) with known codes.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  decide,
  EVAL_ERROR_CODES,
  type ExpressionKind,
  evaluate,
  MAX_EXPRESSION_LENGTH,
  PARSE_ERROR_CODES,
  parsePolicy,
  tryParseExpression,
} from '../../../../src/service/policy/index.js'
import { evaluateThreeValued } from '../../../../src/service/policy/evaluate.js'
import type { PolicyContext } from '../../../../src/service/policy/types/namespaces.js'

const FRAGMENTS = [
  'activity',
  'eth',
  'tx',
  'to',
  'value',
  'data',
  'chain_id',
  'contract_call_args',
  'eip_712',
  'message',
  'solana',
  'transfers',
  'spl_transfers',
  'instructions',
  'accounts',
  'approvers',
  'credentials',
  'wallet',
  'wallet_account',
  'private_key',
  'time',
  'now',
  'id',
  'tags',
  'type',
  'params',
  'x',
  'user',
  'any',
  'all',
  'filter',
  'contains',
  'count',
  'Timestamp',
  'CronSpan',
  'true',
  'false',
  'in',
  '&&',
  '||',
  '!',
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  '-',
  '.',
  '..',
  ',',
  '(',
  ')',
  '[',
  ']',
  '0',
  '1',
  '42',
  '115792089237316195423570985008687907853269984665640564039457584007913129639936',
  "'a'",
  "'0xa9059cbb'",
  "''",
  "'2025-01-01T00:00:00Z'",
  "'0 9 * * 1-5'",
  "'8h'",
  "'UTC'",
  '"',
  '=',
  '&',
  '|',
  '+',
  '@',
  "'",
  '\\',
  '\n',
  ' ',
] as const

const tokenStream = fc
  .array(fc.constantFrom(...FRAGMENTS), { maxLength: 40 })
  .chain((tokens) =>
    fc
      .array(fc.constantFrom('', ' '), { minLength: tokens.length, maxLength: tokens.length })
      .map((seps) => tokens.map((t, i) => `${t}${seps[i]}`).join('')),
  )

/** Random values a context may carry in its dynamic places (maps, contract arguments). */
const dynamic: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.boolean(),
    fc.bigInt(),
    fc.integer(),
    fc.double(),
    fc.string({ maxLength: 8 }),
    fc.constant(null),
    fc.constant(undefined),
    fc.date({ noInvalidDate: false }),
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'token', 'amount', 'constructor', '__proto__', 'toString'), tie('v'), { maxKeys: 3 }),
  ),
})).v

const context: fc.Arbitrary<PolicyContext> = fc.record(
  {
    approvers: fc.array(
      fc.record({ id: fc.constantFrom('a', 'b', 'c'), tags: fc.array(fc.constantFrom('ops', 'sec'), { maxLength: 2 }) }),
      { maxLength: 4 },
    ),
    credentials: fc.constant([]),
    activity: fc.record({
      type: fc.constantFrom('ACTIVITY_TYPE_SIGN_TRANSACTION_V2', 'x'),
      params: fc.dictionary(fc.constantFrom('type', 'user_ids'), dynamic as fc.Arbitrary<never>),
    }),
    eth: fc.record(
      {
        tx: fc.record(
          {
            to: fc.constantFrom('0xa', '0xb'),
            value: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
            data: fc.string(),
            chain_id: fc.integer(),
            contract_call_args: fc.dictionary(fc.constantFrom('a', 'b'), dynamic as fc.Arbitrary<never>),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    ),
    solana: fc.record({
      tx: fc.record({
        transfers: fc.array(
          fc.record(
            {
              from: fc.constantFrom('s', 't'),
              to: fc.constantFrom('s', 't', 'ADDRESS_TABLE_LOOKUP'),
              amount: fc.oneof(fc.bigInt(), dynamic),
            },
            { requiredKeys: ['from'] },
          ),
          { maxLength: 3 },
        ),
      }),
    }),
    now: fc.date({ min: new Date('1970-01-02T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }),
  },
  { requiredKeys: ['approvers', 'credentials'] },
) as unknown as fc.Arbitrary<PolicyContext>

/** Random well-formed expressions over the namespaces (they may still be ill-typed: that is a parse error value). */
const expression: fc.Arbitrary<string> = fc.letrec<{ top: string; e: string; path: string }>((tie) => ({
  top: fc.oneof(
    tie('e'),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `(${a}) == (${b})`),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `solana.tx.transfers.any(x, (${a}) != (${b}))`),
  ),
  path: fc.constantFrom(
    'eth.tx.to',
    'eth.tx.value',
    'eth.tx.data',
    'eth.tx.chain_id',
    "eth.tx.contract_call_args['a']",
    "eth.tx.contract_call_args['b'][0]",
    'activity.type',
    'activity.params.type',
    'activity.params.user_ids',
    'x',
    'x.to',
    'x.amount',
    'wallet.id',
    "eth.eip_712.message['token']",
    'solana.tx.transfers',
  ),
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('path'),
    fc.constantFrom('true', 'false', '0', '1', '-1', "'a'", "'0xa'", '[]', '[1, 2]', "['a', 'b']", "Timestamp('2025-01-01T00:00:00Z')"),
    fc
      .tuple(tie('e'), fc.constantFrom('&&', '||', '==', '!=', '<', '<=', '>', '>=', 'in'), tie('e'))
      .map(([a, op, b]) => `(${a} ${op} ${b})`),
    tie('e').map((a) => `!${a}`),
    fc.tuple(tie('e'), fc.constantFrom('any', 'all', 'filter'), tie('e')).map(([a, q, b]) => `${a}.${q}(x, ${b})`),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `${a}.contains(${b})`),
    tie('e').map((a) => `${a}.count()`),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `${a}[${b}]`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([a, b, c]) => `${a}[${b}..${c}]`),
    fc.array(tie('e'), { maxLength: 3 }).map((xs) => `[${xs.join(', ')}]`),
  ),
})).top

/** Random mostly well-typed bool expressions (the type checker accepts most, so they reach the evaluator). */
const typedBool: fc.Arbitrary<string> = fc
  .letrec<{ bool: string; int: string; str: string; list: string; dyn: string }>((tie) => ({
    dyn: fc.constantFrom(
      "eth.tx.contract_call_args['a']",
      "eth.tx.contract_call_args['b'][0]",
      "eth.eip_712.message['token']",
      'activity.params.type',
    ),
    int: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom(
        '0',
        '1',
        '-1',
        'eth.tx.value',
        'eth.tx.chain_id',
        'x.amount',
        '115792089237316195423570985008687907853269984665640564039457584007913129639935',
      ),
      tie('list').map((l) => `${l}.count()`),
      tie('dyn'),
    ),
    str: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom("'a'", "''", 'eth.tx.to', 'eth.tx.data', 'x.to', 'x.from', 'activity.type'),
      tie('str').map((v) => `${v}[0]`),
      fc.tuple(tie('str'), tie('int'), tie('int')).map(([v, a, b]) => `${v}[${a}..${b}]`),
      tie('dyn'),
    ),
    list: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom('[1, 2]', "['a', 'b']", '[]', 'activity.params.user_ids', 'solana.tx.transfers'),
      fc.tuple(tie('list'), tie('bool')).map(([l, b]) => `${l}.filter(x, ${b})`),
      fc.tuple(tie('list'), tie('int'), tie('int')).map(([l, a, b]) => `${l}[${a}..${b}]`),
      tie('dyn'),
    ),
    bool: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom('true', 'false'),
      fc.tuple(tie('int'), fc.constantFrom('<', '<=', '>', '>=', '==', '!='), tie('int')).map(([a, op, b]) => `(${a} ${op} ${b})`),
      fc.tuple(tie('str'), fc.constantFrom('==', '!='), tie('str')).map(([a, op, b]) => `(${a} ${op} ${b})`),
      fc.tuple(tie('str'), tie('list')).map(([a, l]) => `(${a} in ${l})`),
      fc.tuple(tie('list'), fc.constantFrom('any', 'all'), tie('bool')).map(([l, q, b]) => `${l}.${q}(x, ${b})`),
      fc.tuple(tie('list'), tie('str')).map(([l, v]) => `${l}.contains(${v})`),
      tie('bool').map((b) => `!${b}`),
      fc.tuple(tie('bool'), fc.constantFrom('&&', '||'), tie('bool')).map(([a, op, b]) => `(${a} ${op} ${b})`),
      tie('dyn'),
    ),
  }))
  .bool.map((b) => `solana.tx.transfers.any(x, ${b})`)

const KINDS: ExpressionKind[] = ['condition', 'consensus', 'time']
const parseCodes = new Set<string>(PARSE_ERROR_CODES)
const evalCodes = new Set<string>(EVAL_ERROR_CODES)

function parseAndEvaluate(source: string, ctx: PolicyContext): void {
  for (const kind of KINDS) {
    const r = tryParseExpression(source, kind)
    if (!r.ok) {
      expect(parseCodes.has(r.error.code)).toBe(true)
      expect(r.error.offset).toBeGreaterThanOrEqual(0)
      expect(r.error.offset).toBeLessThanOrEqual(source.length)
      continue
    }
    if (r.expr === undefined) continue
    const v = evaluate(r.expr, ctx, { stepBudget: 20_000 })
    if (v.ok) expect(typeof v.value).toBe('boolean')
    else expect(evalCodes.has(v.error.code)).toBe(true)
  }
}

describe('property: parse and evaluate never throw', () => {
  it('random token streams', () => {
    fc.assert(
      fc.property(tokenStream, context, (source, ctx) => parseAndEvaluate(source, ctx)),
      { numRuns: 1_500 },
    )
  })

  it('random strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60, unit: 'binary' }), (source) =>
        parseAndEvaluate(source, { approvers: [], credentials: [], now: new Date(0) }),
      ),
      { numRuns: 500 },
    )
  })

  it('random well-formed expressions against random contexts', () => {
    let evaluated = 0
    fc.assert(
      fc.property(expression, context, (source, ctx) => {
        parseAndEvaluate(source, ctx)
        if (tryParseExpression(source, 'condition').ok) evaluated++
      }),
      { numRuns: 1_500 },
    )
    // The generator must reach the evaluator, not only the parser's error paths.
    expect(evaluated).toBeGreaterThan(30)
  })

  it('random typed expressions against random contexts', () => {
    let evaluated = 0
    fc.assert(
      fc.property(typedBool, context, (source, ctx) => {
        parseAndEvaluate(source, ctx)
        if (tryParseExpression(source, 'condition').ok) evaluated++
      }),
      { numRuns: 1_500 },
    )
    expect(evaluated).toBeGreaterThan(750)
  })

  it('three-valued evaluation (a DENY that met a missing field) agrees with evaluate wherever nothing is missing', () => {
    const seen = { agreed: 0, missing: 0 }
    fc.assert(
      fc.property(typedBool, context, (source, ctx) => {
        const r = tryParseExpression(source, 'condition')
        if (!r.ok || r.expr === undefined) return
        const two = evaluate(r.expr, ctx, { stepBudget: 20_000 })
        const three = evaluateThreeValued(r.expr, ctx, { stepBudget: 20_000 })
        if (two.ok) {
          seen.agreed++
          expect(three).toEqual(two)
        } else if (two.error.code !== 'MISSING_FIELD') {
          // Everything before the error was read alike: the same error, at the same place.
          expect(three).toMatchObject({ ok: false, error: two.error })
        } else {
          seen.missing++
          // Never MISSING_FIELD: a missing field is unknown; it reads at least as far.
          if (three.ok) expect([true, false, 'unknown']).toContain(three.value)
          else expect(three.error.code).not.toBe('MISSING_FIELD')
          expect(three.steps).toBeGreaterThanOrEqual(two.steps)
        }
      }),
      { numRuns: 1_500 },
    )
    expect(seen.agreed).toBeGreaterThan(300)
    expect(seen.missing).toBeGreaterThan(30)
  })

  it('random policies through decide', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(expression, expression, fc.boolean()), { maxLength: 5 }), context, (specs, ctx) => {
        const policies = specs.flatMap(([condition, consensus, deny], i) => {
          const r = parsePolicy({ condition, consensus: consensus.replaceAll('x.', 'approvers[0].') })
          return r.ok ? [{ policyId: `p${i}`, effect: deny ? ('EFFECT_DENY' as const) : ('EFFECT_ALLOW' as const), parsed: r.policy }] : []
        })
        const d = decide(policies, ctx, { rootQuorum: false, stepBudget: 5_000 })
        expect(d.evaluations.length).toBeLessThanOrEqual(policies.length)
      }),
      { numRuns: 500 },
    )
  })

  it('inputs at and past the length limit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MAX_EXPRESSION_LENGTH - 2, max: MAX_EXPRESSION_LENGTH + 2 }),
        fc.constantFrom('(', '!', '[', 'a', "'", '1'),
        (n, ch) => {
          parseAndEvaluate(ch.repeat(n), { approvers: [], credentials: [], now: new Date(0) })
        },
      ),
      { numRuns: 30 },
    )
  })
})
