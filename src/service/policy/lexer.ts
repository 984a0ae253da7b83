/**
 * Lexer of the policy language (features/policies/language, "Grammar" and "Types"): identifiers,
 * integers (arbitrary size, read as bigint), single-quoted strings, `true` / `false`, and the
 * operators `&& || ! == != < <= > >= in . .. , ( ) [ ]` (plus unary `-` for negative literals).
 * A character-by-character scanner; no regular expressions.
 */
import { ParseFailure } from './errors.js'
import { MAX_TOKENS } from './limits.js'

/** Token kinds. */
export type TokenKind =
  | 'ident'
  | 'int'
  | 'string'
  | 'true'
  | 'false'
  | 'in'
  | '&&'
  | '||'
  | '!'
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | '-'
  | '.'
  | '..'
  | ','
  | '('
  | ')'
  | '['
  | ']'
  | 'eof'

/** One token: its kind, its text (decoded for strings), and its offset in the source. */
export type Token = { readonly kind: TokenKind; readonly text: string; readonly offset: number }

const isDigit = (c: number): boolean => c >= 48 && c <= 57
const isIdentStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95
const isIdentPart = (c: number): boolean => isIdentStart(c) || isDigit(c)
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13

const TWO_CHAR: ReadonlySet<string> = new Set(['&&', '||', '==', '!=', '<=', '>=', '..'])
const ONE_CHAR: ReadonlySet<string> = new Set(['!', '<', '>', '-', '.', ',', '(', ')', '[', ']'])

/** Split `source` into tokens, ending with one `eof`. Throws `ParseFailure` (caught by the parser's entry point). */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  const n = source.length
  const push = (kind: TokenKind, text: string, offset: number): void => {
    if (tokens.length >= MAX_TOKENS) throw new ParseFailure('POLICY_TOO_LONG', offset, `expression has more than ${MAX_TOKENS} tokens`)
    tokens.push({ kind, text, offset })
  }
  while (i < n) {
    const c = source.charCodeAt(i)
    if (isSpace(c)) {
      i++
      continue
    }
    const start = i
    if (isIdentStart(c)) {
      while (i < n && isIdentPart(source.charCodeAt(i))) i++
      const word = source.slice(start, i)
      push(word === 'true' || word === 'false' || word === 'in' ? word : 'ident', word, start)
      continue
    }
    if (isDigit(c)) {
      while (i < n && isDigit(source.charCodeAt(i))) i++
      if (i < n && isIdentStart(source.charCodeAt(i))) {
        throw new ParseFailure('POLICY_SYNTAX', i, `unexpected character '${source[i]}' in a number (integers are decimal digits only)`)
      }
      push('int', source.slice(start, i), start)
      continue
    }
    if (c === 39 /* ' */) {
      i++
      let text = ''
      for (;;) {
        if (i >= n) throw new ParseFailure('POLICY_SYNTAX', start, 'unterminated string literal')
        const d = source.charCodeAt(i)
        if (d === 39) {
          i++
          break
        }
        if (d === 92 /* \ */) {
          const e = source[i + 1]
          if (e === "'" || e === '\\') {
            text += e
            i += 2
            continue
          }
          throw new ParseFailure('POLICY_SYNTAX', i, "unknown escape in string literal (only \\' and \\\\ are escapes)")
        }
        text += source[i]
        i++
      }
      push('string', text, start)
      continue
    }
    if (c === 34 /* " */) throw new ParseFailure('POLICY_SYNTAX', i, "strings use single quotes ('a'), not double quotes")
    const two = source.slice(i, i + 2)
    if (TWO_CHAR.has(two)) {
      push(two as TokenKind, two, start)
      i += 2
      continue
    }
    const one = source[i] ?? ''
    if (ONE_CHAR.has(one)) {
      push(one as TokenKind, one, start)
      i++
      continue
    }
    const hint = one === '=' ? " (comparison is '==')" : one === '&' ? " (logical and is '&&')" : one === '|' ? " (logical or is '||')" : ''
    throw new ParseFailure('POLICY_SYNTAX', i, `unexpected character ${JSON.stringify(one)}${hint}`)
  }
  tokens.push({ kind: 'eof', text: '', offset: n })
  return tokens
}
