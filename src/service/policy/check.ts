/**
 * Parse-time check of an expression against the documented namespaces: unknown keywords and fields
 * are errors with their position (the hosted service refuses them when the policy is created), as
 * are type errors visible without a context (`!'a'`, `1 && true`, `'a' < 1`, a condition that is not
 * a bool). Map values and contract arguments are `dynamic` and are checked at evaluation time.
 */
import type { Expr } from './ast.js'
import { ParseFailure } from './errors.js'
import { BOOL, DYNAMIC, INT, listOf, type PolicyType, STRING, TIMESTAMP } from './types/namespaces.js'

type Scope = ReadonlyMap<string, PolicyType>

const show = (t: PolicyType): string => {
  switch (t.k) {
    case 'list':
      return `list<${show(t.of)}>`
    case 'map':
      return `map<string, ${show(t.of)}>`
    case 'struct':
      return t.name
    default:
      return t.k
  }
}

const isA = (t: PolicyType, k: PolicyType['k']): boolean => t.k === k || t.k === 'dynamic'

function expectBool(t: PolicyType, e: Expr, what: string): void {
  if (!isA(t, 'bool')) throw new ParseFailure('POLICY_TYPE', e.offset, `${what} must be a bool, found ${show(t)}`)
}

/** Two static types that can never be compared for order. */
function orderable(a: PolicyType, b: PolicyType): boolean {
  if (a.k === 'dynamic' || b.k === 'dynamic') return true
  return a.k === b.k && (a.k === 'int' || a.k === 'timestamp')
}

function infer(e: Expr, keywords: Readonly<Record<string, PolicyType>>, scope: Scope): PolicyType {
  switch (e.kind) {
    case 'bool':
      return BOOL
    case 'int':
      return INT
    case 'string':
      return STRING
    case 'timestamp':
      return TIMESTAMP
    case 'cronspan':
      return BOOL
    case 'list': {
      let of: PolicyType | undefined
      for (const item of e.items) {
        const t = infer(item, keywords, scope)
        if (of === undefined) of = t
        else if (of.k !== t.k) of = DYNAMIC
      }
      return listOf(of ?? DYNAMIC)
    }
    case 'ident': {
      const bound = scope.get(e.name)
      if (bound !== undefined) return bound
      if (Object.hasOwn(keywords, e.name)) return keywords[e.name] as PolicyType
      const known = Object.keys(keywords).join(', ')
      throw new ParseFailure('POLICY_UNKNOWN_KEYWORD', e.offset, `unknown keyword '${e.name}' (this field knows: ${known})`)
    }
    case 'member': {
      const t = infer(e.object, keywords, scope)
      if (t.k === 'dynamic') return DYNAMIC
      if (t.k === 'map') return t.of
      if (t.k === 'struct') {
        if (Object.hasOwn(t.fields, e.name)) return t.fields[e.name] as PolicyType
        throw new ParseFailure(
          'POLICY_UNKNOWN_FIELD',
          e.nameOffset,
          `unknown field '${e.name}' of ${t.name} (fields: ${Object.keys(t.fields).join(', ')})`,
        )
      }
      throw new ParseFailure('POLICY_UNKNOWN_FIELD', e.nameOffset, `unknown field '${e.name}': ${show(t)} has no fields`)
    }
    case 'index': {
      const t = infer(e.object, keywords, scope)
      const i = infer(e.index, keywords, scope)
      if (t.k === 'dynamic') return DYNAMIC
      if (t.k === 'list' || t.k === 'string') {
        if (!isA(i, 'int'))
          throw new ParseFailure('POLICY_TYPE', e.index.offset, `an index into a ${show(t)} must be an int, found ${show(i)}`)
        return t.k === 'list' ? t.of : STRING
      }
      if (t.k === 'map') {
        if (!isA(i, 'string'))
          throw new ParseFailure('POLICY_TYPE', e.index.offset, `a key of a ${show(t)} must be a string, found ${show(i)}`)
        return t.of
      }
      if (t.k === 'struct' && e.index.kind === 'string') {
        if (Object.hasOwn(t.fields, e.index.value)) return t.fields[e.index.value] as PolicyType
        throw new ParseFailure('POLICY_UNKNOWN_FIELD', e.index.offset, `unknown field '${e.index.value}' of ${t.name}`)
      }
      throw new ParseFailure('POLICY_TYPE', e.offset, `${show(t)} cannot be indexed`)
    }
    case 'slice': {
      const t = infer(e.object, keywords, scope)
      for (const bound of [e.start, e.end]) {
        const b = infer(bound, keywords, scope)
        if (!isA(b, 'int')) throw new ParseFailure('POLICY_TYPE', bound.offset, `a slice bound must be an int, found ${show(b)}`)
      }
      if (t.k === 'dynamic' || t.k === 'list' || t.k === 'string') return t
      throw new ParseFailure('POLICY_TYPE', e.offset, `${show(t)} cannot be sliced (lists and strings can)`)
    }
    case 'not': {
      expectBool(infer(e.operand, keywords, scope), e.operand, "the operand of '!'")
      return BOOL
    }
    case 'neg': {
      const t = infer(e.operand, keywords, scope)
      if (!isA(t, 'int')) throw new ParseFailure('POLICY_TYPE', e.operand.offset, `the operand of '-' must be an int, found ${show(t)}`)
      return INT
    }
    case 'logical':
      for (const o of e.operands) expectBool(infer(o, keywords, scope), o, `an operand of '${e.op}'`)
      return BOOL
    case 'compare': {
      const l = infer(e.left, keywords, scope)
      const r = infer(e.right, keywords, scope)
      if (e.op === 'in') {
        if (!isA(r, 'list'))
          throw new ParseFailure('POLICY_TYPE', e.right.offset, `the right side of 'in' must be a list, found ${show(r)}`)
      } else if (e.op !== '==' && e.op !== '!=' && !orderable(l, r)) {
        throw new ParseFailure('POLICY_TYPE', e.offset, `'${e.op}' compares two ints or two timestamps, found ${show(l)} and ${show(r)}`)
      }
      return BOOL
    }
    case 'quantifier': {
      const t = infer(e.object, keywords, scope)
      if (!isA(t, 'list')) throw new ParseFailure('POLICY_TYPE', e.object.offset, `${e.op}(…) applies to a list, found ${show(t)}`)
      const inner = new Map(scope)
      inner.set(e.variable, t.k === 'list' ? t.of : DYNAMIC)
      expectBool(infer(e.body, keywords, inner), e.body, `the predicate of ${e.op}(…)`)
      return e.op === 'filter' ? t : BOOL
    }
    case 'contains': {
      const t = infer(e.object, keywords, scope)
      infer(e.value, keywords, scope)
      if (!isA(t, 'list')) throw new ParseFailure('POLICY_TYPE', e.object.offset, `contains(…) applies to a list, found ${show(t)}`)
      return BOOL
    }
    case 'count': {
      const t = infer(e.object, keywords, scope)
      if (!isA(t, 'list')) throw new ParseFailure('POLICY_TYPE', e.object.offset, `count applies to a list, found ${show(t)}`)
      return INT
    }
  }
}

/** Check `e` against the keywords of its field; it must be a bool. Throws `ParseFailure`. */
export function checkExpression(e: Expr, keywords: Readonly<Record<string, PolicyType>>): void {
  expectBool(infer(e, keywords, new Map()), e, 'the expression')
}
