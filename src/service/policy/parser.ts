/**
 * Recursive-descent parser of the policy language (features/policies/language, "Grammar").
 *
 * Precedence, lowest first: `||`, `&&`, comparison (`== != < <= > >= in`, non-associative),
 * unary (`!`, `-`), postfix (`.field`, `.method(…)`, `[index]`, `[start..end]`), primary (literal,
 * list, identifier, `( … )`, `Timestamp(…)`, `CronSpan(…)`).
 *
 * Recursion is bounded: every node records its depth and a node deeper than `MAX_DEPTH` is refused
 * before the parser descends further, so 10,000 nested parentheses are a `POLICY_TOO_DEEP` error,
 * not a stack overflow.
 */
import type { CompareOp, Expr, Quantifier } from './ast.js'
import { ParseFailure } from './errors.js'
import { type Token, type TokenKind, tokenize } from './lexer.js'
import { MAX_DEPTH, MAX_UINT, MIN_INT } from './limits.js'
import { parseCronSpan, parseTimestampLiteral } from './time.js'

const COMPARE_OPS: ReadonlySet<TokenKind> = new Set(['==', '!=', '<', '<=', '>', '>=', 'in'])
const QUANTIFIERS: ReadonlySet<string> = new Set(['any', 'all', 'filter'])

type Distribute<T> = T extends unknown ? Omit<T, 'depth'> : never
type NodeInit = Distribute<Expr>

class Parser {
  private pos = 0
  /** Current recursion depth of the descent (parentheses, lists, arguments, unary operators). */
  private nesting = 0

  constructor(private readonly tokens: readonly Token[]) {}

  parse(): Expr {
    const expr = this.expression()
    const t = this.peek()
    if (t.kind !== 'eof') throw new ParseFailure('POLICY_SYNTAX', t.offset, `unexpected ${describe(t)} after the end of the expression`)
    return expr
  }

  private peek(): Token {
    return this.tokens[this.pos] as Token
  }

  private next(): Token {
    const t = this.tokens[this.pos] as Token
    if (t.kind !== 'eof') this.pos++
    return t
  }

  private expect(kind: TokenKind, what: string): Token {
    const t = this.peek()
    if (t.kind !== kind) throw new ParseFailure('POLICY_SYNTAX', t.offset, `expected ${what}, found ${describe(t)}`)
    return this.next()
  }

  /** Build a node, computing its depth from its children and refusing it beyond `MAX_DEPTH`. */
  private node(init: NodeInit, children: readonly Expr[]): Expr {
    let depth = 1
    for (const c of children) if (c.depth + 1 > depth) depth = c.depth + 1
    if (depth > MAX_DEPTH) throw new ParseFailure('POLICY_TOO_DEEP', init.offset, `expression nested deeper than ${MAX_DEPTH} levels`)
    return { ...init, depth } as Expr
  }

  private enter(offset: number): void {
    if (++this.nesting > MAX_DEPTH) throw new ParseFailure('POLICY_TOO_DEEP', offset, `expression nested deeper than ${MAX_DEPTH} levels`)
  }

  private leave(): void {
    this.nesting--
  }

  private expression(): Expr {
    this.enter(this.peek().offset)
    const e = this.logical('||')
    this.leave()
    return e
  }

  private logical(op: '&&' | '||'): Expr {
    const first = op === '||' ? this.logical('&&') : this.comparison()
    if (this.peek().kind !== op) return first
    const operands = [first]
    while (this.peek().kind === op) {
      this.next()
      operands.push(op === '||' ? this.logical('&&') : this.comparison())
    }
    return this.node({ kind: 'logical', op, operands, offset: first.offset }, operands)
  }

  private comparison(): Expr {
    const left = this.unary()
    const t = this.peek()
    if (!COMPARE_OPS.has(t.kind)) return left
    this.next()
    const right = this.unary()
    const after = this.peek()
    if (COMPARE_OPS.has(after.kind)) {
      throw new ParseFailure('POLICY_SYNTAX', after.offset, `comparisons do not chain: parenthesize, e.g. (a ${t.text} b) ${after.text} c`)
    }
    return this.node({ kind: 'compare', op: t.kind as CompareOp, left, right, offset: left.offset }, [left, right])
  }

  private unary(): Expr {
    const t = this.peek()
    if (t.kind === '!' || t.kind === '-') {
      this.next()
      this.enter(t.offset)
      const operand = this.unary()
      this.leave()
      if (t.kind === '-' && operand.kind === 'int') {
        return this.node({ kind: 'int', value: checkInt(-operand.value, t.offset), offset: t.offset }, [])
      }
      return this.node({ kind: t.kind === '!' ? 'not' : 'neg', operand, offset: t.offset }, [operand])
    }
    return this.postfix(this.primary())
  }

  private postfix(start: Expr): Expr {
    let e = start
    for (;;) {
      const t = this.peek()
      if (t.kind === '.') {
        this.next()
        const name = this.expect('ident', 'a field or method name after "."')
        if (this.peek().kind === '(') e = this.method(e, name)
        else if (name.text === 'count') e = this.node({ kind: 'count', object: e, offset: e.offset }, [e])
        else e = this.node({ kind: 'member', object: e, name: name.text, nameOffset: name.offset, offset: e.offset }, [e])
        continue
      }
      if (t.kind === '[') {
        this.next()
        this.enter(t.offset)
        const index = this.expression()
        if (this.peek().kind === '..') {
          this.next()
          const end = this.expression()
          this.expect(']', '"]" to close the slice')
          this.leave()
          e = this.node({ kind: 'slice', object: e, start: index, end, offset: e.offset }, [e, index, end])
        } else {
          this.expect(']', '"]" to close the index')
          this.leave()
          e = this.node({ kind: 'index', object: e, index, offset: e.offset }, [e, index])
        }
        continue
      }
      return e
    }
  }

  private method(object: Expr, name: Token): Expr {
    const open = this.expect('(', '"("')
    this.enter(open.offset)
    let result: Expr
    if (QUANTIFIERS.has(name.text)) {
      const variable = this.expect('ident', `a variable name as the first argument of ${name.text}(item, predicate)`)
      if (isReservedName(variable.text)) {
        throw new ParseFailure('POLICY_SYNTAX', variable.offset, `'${variable.text}' is reserved and cannot name a variable`)
      }
      this.expect(',', `"," after the variable of ${name.text}(item, predicate)`)
      const body = this.expression()
      this.expect(')', `")" to close ${name.text}(…)`)
      result = this.node(
        { kind: 'quantifier', op: name.text as Quantifier, object, variable: variable.text, body, offset: object.offset },
        [object, body],
      )
    } else if (name.text === 'contains') {
      const value = this.expression()
      this.expect(')', '")" to close contains(…): it takes one argument')
      result = this.node({ kind: 'contains', object, value, offset: object.offset }, [object, value])
    } else if (name.text === 'count') {
      this.expect(')', '")": count() takes no arguments')
      result = this.node({ kind: 'count', object, offset: object.offset }, [object])
    } else {
      throw new ParseFailure(
        'POLICY_UNKNOWN_FUNCTION',
        name.offset,
        `unknown method '${name.text}' (methods: all, any, contains, count, filter)`,
      )
    }
    this.leave()
    return result
  }

  private primary(): Expr {
    const t = this.next()
    switch (t.kind) {
      case 'true':
      case 'false':
        return this.node({ kind: 'bool', value: t.kind === 'true', offset: t.offset }, [])
      case 'int':
        return this.node({ kind: 'int', value: checkInt(BigInt(t.text), t.offset), offset: t.offset }, [])
      case 'string':
        return this.node({ kind: 'string', value: t.text, offset: t.offset }, [])
      case '(': {
        const e = this.expression()
        this.expect(')', '")"')
        return e
      }
      case '[': {
        this.enter(t.offset)
        const items: Expr[] = []
        if (this.peek().kind !== ']') {
          for (;;) {
            items.push(this.expression())
            if (this.peek().kind !== ',') break
            this.next()
            if (this.peek().kind === ']') break // a trailing comma
          }
        }
        this.expect(']', '"," or "]" in the list')
        this.leave()
        return this.node({ kind: 'list', items, offset: t.offset }, items)
      }
      case 'ident':
        if (this.peek().kind === '(') return this.call(t)
        return this.node({ kind: 'ident', name: t.text, offset: t.offset }, [])
      default:
        throw new ParseFailure('POLICY_SYNTAX', t.offset, `expected an expression, found ${describe(t)}`)
    }
  }

  /** `Timestamp('…')` and `CronSpan('…', '…', '…')`: string-literal arguments, checked now. */
  private call(name: Token): Expr {
    this.next() // (
    const args: Token[] = []
    if (this.peek().kind !== ')') {
      for (;;) {
        const a = this.peek()
        if (a.kind !== 'string')
          throw new ParseFailure('POLICY_TYPE', a.offset, `${name.text}(…) takes string literals, found ${describe(a)}`)
        args.push(this.next())
        if (this.peek().kind !== ',') break
        this.next()
      }
    }
    this.expect(')', `")" to close ${name.text}(…)`)
    if (name.text === 'Timestamp') {
      const [arg] = args
      if (arg === undefined || args.length !== 1)
        throw new ParseFailure('POLICY_UNKNOWN_FUNCTION', name.offset, "Timestamp takes one argument: Timestamp('<rfc3339>')")
      const epochNs = parseTimestampLiteral(arg.text)
      if (typeof epochNs === 'string') throw new ParseFailure('POLICY_TYPE', arg.offset, epochNs)
      return this.node({ kind: 'timestamp', epochNs, offset: name.offset }, [])
    }
    if (name.text === 'CronSpan') {
      const [cron, duration, tz] = args
      if (cron === undefined || duration === undefined || tz === undefined || args.length !== 3) {
        throw new ParseFailure(
          'POLICY_UNKNOWN_FUNCTION',
          name.offset,
          "CronSpan takes three arguments: CronSpan('<cron>', '<duration>', '<tz>')",
        )
      }
      const span = parseCronSpan(cron.text, duration.text, tz.text)
      if (!span.ok) throw new ParseFailure('POLICY_TYPE', [cron, duration, tz][span.argument]?.offset ?? name.offset, span.message)
      return this.node({ kind: 'cronspan', ...span.value, offset: name.offset }, [])
    }
    throw new ParseFailure('POLICY_UNKNOWN_FUNCTION', name.offset, `unknown function '${name.text}' (functions: Timestamp, CronSpan)`)
  }
}

function checkInt(v: bigint, offset: number): bigint {
  if (v > MAX_UINT || v < MIN_INT)
    throw new ParseFailure('POLICY_TYPE', offset, 'integer literal out of range (the language holds up to u256)')
  return v
}

function isReservedName(name: string): boolean {
  return name === 'true' || name === 'false' || name === 'in'
}

function describe(t: Token): string {
  if (t.kind === 'eof') return 'the end of the expression'
  if (t.kind === 'string') return 'a string'
  if (t.kind === 'int') return `the number ${t.text.length > 20 ? `${t.text.slice(0, 20)}…` : t.text}`
  if (t.kind === 'ident') return `'${t.text.length > 40 ? `${t.text.slice(0, 40)}…` : t.text}'`
  return `'${t.text}'`
}

/** Tokenize and parse one expression. Throws `ParseFailure` (the entry points in `policy.ts` turn it into a value). */
export function parseTokens(source: string): Expr {
  return new Parser(tokenize(source)).parse()
}
