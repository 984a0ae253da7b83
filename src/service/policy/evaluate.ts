/**
 * Evaluator of a parsed expression against a `PolicyContext`. Pure, synchronous, bounded: one step
 * per node and per list element touched, from a budget (`DEFAULT_STEP_BUDGET`). It never throws:
 * the result is `{ ok: true, value }` or `{ ok: false, error }` (the hosted engine's `OUTCOME_ERROR`).
 *
 * Semantics (features/policies/language, "Policy evaluation"): no short circuit — every operand of
 * `&&` / `||` and every element of `any` / `all` is evaluated, and an error anywhere makes the whole
 * expression an error. Reading a field the context does not carry is `MISSING_FIELD`. `==` / `!=`
 * between values of different types are false / true; ordering or `in` on the wrong types is
 * `TYPE_MISMATCH`. Integers are bigint (u256 wei values compare exactly).
 */
import type { Expr } from './ast.js'
import type { EvalError, EvalErrorCode } from './errors.js'
import { DEFAULT_STEP_BUDGET } from './limits.js'
import { cronSpanActive } from './time.js'
import type { PolicyContext } from './types/namespaces.js'

/** A `timestamp` value: nanoseconds since the epoch. */
export class PolicyTimestamp {
  constructor(readonly epochNs: bigint) {}
}

/** A runtime value. Lists and structs are the context's own arrays and objects, read lazily. */
export type Value = boolean | bigint | string | PolicyTimestamp | readonly unknown[] | { readonly [key: string]: unknown }

/** Result of evaluating one expression. */
export type EvalResult = { ok: true; value: boolean; steps: number } | { ok: false; error: EvalError; steps: number }

/** Options of `evaluate`. */
export type EvaluateOptions = { stepBudget?: number }

class EvalFailure {
  constructor(
    readonly code: EvalErrorCode,
    readonly offset: number,
    readonly message: string,
  ) {}
}

type Frame = { readonly name: string; readonly value: Value; readonly parent: Frame | undefined }

const typeName = (v: Value): string => {
  if (typeof v === 'boolean') return 'bool'
  if (typeof v === 'bigint') return 'int'
  if (typeof v === 'string') return 'string'
  if (v instanceof PolicyTimestamp) return 'timestamp'
  if (Array.isArray(v)) return 'list'
  return 'struct'
}

/** Normalize a value read from the context (numbers → bigint, Date → timestamp); absent → MISSING_FIELD. */
function normalize(raw: unknown, offset: number, what: string): Value {
  switch (typeof raw) {
    case 'boolean':
    case 'bigint':
    case 'string':
      return raw
    case 'number':
      if (Number.isSafeInteger(raw)) return BigInt(raw)
      throw new EvalFailure('INVALID_VALUE', offset, `${what} is not an integer`)
    case 'object':
      if (raw === null) break
      if (raw instanceof PolicyTimestamp) return raw
      if (raw instanceof Date) {
        const ms = raw.getTime()
        if (Number.isNaN(ms)) throw new EvalFailure('INVALID_VALUE', offset, `${what} is an invalid date`)
        return new PolicyTimestamp(BigInt(ms) * 1_000_000n)
      }
      return raw as Value
    default:
      break
  }
  throw new EvalFailure('MISSING_FIELD', offset, `${what} is not available for this activity`)
}

class Evaluator {
  steps = 0
  constructor(
    private readonly context: PolicyContext,
    private readonly budget: number,
  ) {}

  private step(offset: number, n = 1): void {
    this.steps += n
    if (this.steps > this.budget)
      throw new EvalFailure('EVALUATION_BUDGET_EXCEEDED', offset, `evaluation exceeded its budget of ${this.budget} steps`)
  }

  private keyword(name: string, offset: number): Value {
    const c = this.context
    let raw: unknown
    switch (name) {
      case 'approvers':
        raw = c.approvers
        break
      case 'credentials':
        raw = c.credentials
        break
      case 'activity':
        raw = c.activity
        break
      case 'eth':
        raw = c.eth
        break
      case 'solana':
        raw = c.solana
        break
      case 'tron':
        raw = c.tron
        break
      case 'bitcoin':
        raw = c.bitcoin
        break
      case 'tempo':
        raw = c.tempo
        break
      case 'wallet':
        raw = c.wallet
        break
      case 'wallets':
        raw = c.wallets
        break
      case 'private_key':
        raw = c.private_key
        break
      case 'wallet_account':
        raw = c.wallet_account
        break
      case 'time':
        raw = c.now === undefined ? undefined : { now: c.now }
        break
      default:
        raw = undefined
    }
    // Objects (the usual case here) need no conversion; the message is built only for a failure.
    if (typeof raw === 'object' && raw !== null && !(raw instanceof Date)) return raw as Value
    return normalize(raw, offset, `'${name}'`)
  }

  private field(obj: Value, key: string, offset: number): Value {
    if (typeof obj !== 'object' || obj instanceof PolicyTimestamp || Array.isArray(obj)) {
      throw new EvalFailure('TYPE_MISMATCH', offset, `a ${typeName(obj)} has no field '${key}'`)
    }
    const rec = obj as { readonly [key: string]: unknown }
    const raw = Object.hasOwn(rec, key) ? rec[key] : undefined
    // Strings, bools and bigints are values as they are; the message is built only when needed.
    if (typeof raw === 'string' || typeof raw === 'boolean' || typeof raw === 'bigint') return raw
    return normalize(raw, offset, `field '${key}'`)
  }

  private list(v: Value, offset: number, what: string): readonly unknown[] {
    if (Array.isArray(v)) return v
    throw new EvalFailure('TYPE_MISMATCH', offset, `${what} applies to a list, found ${typeName(v)}`)
  }

  private bool(v: Value, offset: number, what: string): boolean {
    if (typeof v === 'boolean') return v
    throw new EvalFailure('TYPE_MISMATCH', offset, `${what} must be a bool, found ${typeName(v)}`)
  }

  private int(v: Value, offset: number, what: string): bigint {
    if (typeof v === 'bigint') return v
    throw new EvalFailure('TYPE_MISMATCH', offset, `${what} must be an int, found ${typeName(v)}`)
  }

  /** Structural equality; values of different types are unequal. */
  private equal(a: Value, b: Value, offset: number): boolean {
    this.step(offset)
    if (typeof a !== 'object' || typeof b !== 'object') return a === b
    if (a instanceof PolicyTimestamp || b instanceof PolicyTimestamp) {
      return a instanceof PolicyTimestamp && b instanceof PolicyTimestamp && a.epochNs === b.epochNs
    }
    if (Array.isArray(a) || Array.isArray(b)) {
      if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
      for (let i = 0; i < a.length; i++) {
        if (!this.equal(normalize(a[i], offset, 'a list element'), normalize(b[i], offset, 'a list element'), offset)) return false
      }
      return true
    }
    const ra = a as { readonly [key: string]: unknown }
    const rb = b as { readonly [key: string]: unknown }
    const ka = Object.keys(ra).filter((k) => ra[k] !== undefined)
    const kb = Object.keys(rb).filter((k) => rb[k] !== undefined)
    if (ka.length !== kb.length) return false
    for (const k of ka) {
      if (!Object.hasOwn(rb, k) || rb[k] === undefined) return false
      if (!this.equal(normalize(ra[k], offset, `field '${k}'`), normalize(rb[k], offset, `field '${k}'`), offset)) return false
    }
    return true
  }

  private includes(xs: readonly unknown[], v: Value, offset: number): boolean {
    let found = false
    for (const x of xs) if (this.equal(normalize(x, offset, 'a list element'), v, offset)) found = true
    return found
  }

  private order(op: '<' | '<=' | '>' | '>=', a: Value, b: Value, offset: number): boolean {
    let x: bigint
    let y: bigint
    if (typeof a === 'bigint' && typeof b === 'bigint') {
      x = a
      y = b
    } else if (a instanceof PolicyTimestamp && b instanceof PolicyTimestamp) {
      x = a.epochNs
      y = b.epochNs
    } else {
      throw new EvalFailure('TYPE_MISMATCH', offset, `'${op}' compares two ints or two timestamps, found ${typeName(a)} and ${typeName(b)}`)
    }
    return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y
  }

  eval(e: Expr, frame: Frame | undefined): Value {
    this.step(e.offset)
    switch (e.kind) {
      case 'bool':
      case 'int':
      case 'string':
        return e.value
      case 'timestamp':
        return new PolicyTimestamp(e.epochNs)
      case 'cronspan': {
        const now = this.keyword('time', e.offset)
        const ts = this.field(now, 'now', e.offset)
        if (!(ts instanceof PolicyTimestamp)) throw new EvalFailure('TYPE_MISMATCH', e.offset, 'time.now is not a timestamp')
        this.step(e.offset, Math.ceil(e.durationMinutes / 60))
        return cronSpanActive(e.cron, e.durationMinutes, e.timeZone, ts.epochNs)
      }
      case 'list':
        return e.items.map((item) => this.eval(item, frame))
      case 'ident': {
        for (let f = frame; f !== undefined; f = f.parent) if (f.name === e.name) return f.value
        return this.keyword(e.name, e.offset)
      }
      case 'member':
        return this.field(this.eval(e.object, frame), e.name, e.nameOffset)
      case 'index': {
        const obj = this.eval(e.object, frame)
        const key = this.eval(e.index, frame)
        if (Array.isArray(obj) || typeof obj === 'string') {
          const i = this.int(key, e.index.offset, 'an index')
          if (i < 0n || i >= BigInt(obj.length)) {
            throw new EvalFailure('INDEX_OUT_OF_BOUNDS', e.index.offset, `index ${i} is outside a ${typeName(obj)} of length ${obj.length}`)
          }
          return typeof obj === 'string' ? (obj[Number(i)] as string) : normalize(obj[Number(i)], e.index.offset, `element ${i}`)
        }
        if (typeof key !== 'string')
          throw new EvalFailure('TYPE_MISMATCH', e.index.offset, `a ${typeName(obj)} is indexed by a string, found ${typeName(key)}`)
        return this.field(obj, key, e.index.offset)
      }
      case 'slice': {
        const obj = this.eval(e.object, frame)
        const start = this.int(this.eval(e.start, frame), e.start.offset, 'a slice start')
        const end = this.int(this.eval(e.end, frame), e.end.offset, 'a slice end')
        if (!(Array.isArray(obj) || typeof obj === 'string')) {
          throw new EvalFailure('TYPE_MISMATCH', e.offset, `only lists and strings can be sliced, found ${typeName(obj)}`)
        }
        if (start < 0n || start > end || end > BigInt(obj.length)) {
          throw new EvalFailure(
            'INDEX_OUT_OF_BOUNDS',
            e.start.offset,
            `slice [${start}..${end}] is outside a ${typeName(obj)} of length ${obj.length}`,
          )
        }
        this.step(e.offset, Number(end - start) >> 4)
        return obj.slice(Number(start), Number(end))
      }
      case 'not':
        return !this.bool(this.eval(e.operand, frame), e.operand.offset, "the operand of '!'")
      case 'neg':
        return -this.int(this.eval(e.operand, frame), e.operand.offset, "the operand of '-'")
      case 'logical': {
        // No short circuit: every operand is evaluated, an error in any is the expression's error.
        let result = e.op === '&&'
        for (const o of e.operands) {
          const v = this.bool(this.eval(o, frame), o.offset, `an operand of '${e.op}'`)
          result = e.op === '&&' ? result && v : result || v
        }
        return result
      }
      case 'compare': {
        const l = this.eval(e.left, frame)
        const r = this.eval(e.right, frame)
        switch (e.op) {
          case '==':
            return this.equal(l, r, e.offset)
          case '!=':
            return !this.equal(l, r, e.offset)
          case 'in':
            return this.includes(this.list(r, e.right.offset, "the right side of 'in'"), l, e.offset)
          default:
            return this.order(e.op, l, r, e.offset)
        }
      }
      case 'quantifier': {
        const xs = this.list(this.eval(e.object, frame), e.object.offset, `${e.op}(…)`)
        let any = false
        let all = true
        const kept: unknown[] = []
        for (const x of xs) {
          const item = normalize(x, e.object.offset, 'a list element')
          const v = this.bool(
            this.eval(e.body, { name: e.variable, value: item, parent: frame }),
            e.body.offset,
            `the predicate of ${e.op}(…)`,
          )
          if (v) {
            any = true
            if (e.op === 'filter') kept.push(item)
          } else all = false
        }
        return e.op === 'any' ? any : e.op === 'all' ? all : kept
      }
      case 'contains': {
        const xs = this.list(this.eval(e.object, frame), e.object.offset, 'contains(…)')
        return this.includes(xs, this.eval(e.value, frame), e.offset)
      }
      case 'count':
        return BigInt(this.list(this.eval(e.object, frame), e.object.offset, 'count').length)
    }
  }
}

/**
 * Evaluate a parsed expression (from `parsePolicy`) against a context. Never throws; an error is
 * `{ ok: false, error }` with a stable code and the offset of the failing sub-expression.
 */
export function evaluate(expr: Expr, context: PolicyContext, options: EvaluateOptions = {}): EvalResult {
  const ev = new Evaluator(context, options.stepBudget ?? DEFAULT_STEP_BUDGET)
  try {
    const v = ev.eval(expr, undefined)
    if (typeof v !== 'boolean') {
      return {
        ok: false,
        error: { code: 'TYPE_MISMATCH', offset: expr.offset, message: `the expression is a ${typeName(v)}, not a bool` },
        steps: ev.steps,
      }
    }
    return { ok: true, value: v, steps: ev.steps }
  } catch (err) {
    if (err instanceof EvalFailure)
      return { ok: false, error: { code: err.code, offset: err.offset, message: err.message }, steps: ev.steps }
    throw err
  }
}
