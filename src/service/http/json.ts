/**
 * The one request-body parser of the service and the relay: bodies are I-JSON (RFC 7493).
 *
 * - UTF-8 only, no byte order mark (RFC 8259 §8.1: a receiver may refuse one; I-JSON §2.1);
 * - no lone UTF-16 surrogate in any string or member name (I-JSON §2.1), no NUL (the database
 *   cannot store it);
 * - no duplicate member names (I-JSON §2.3): with last-wins parsing, a proxy reading the first
 *   `organizationId` would see another organization than the one that executes.
 *
 * `JSON.parse` decides syntax; the audited `@humanwhocodes/momoa` parser (ESLint's JSON parser)
 * gives the tree with every member, duplicates included, that the I-JSON rules are checked on.
 * Every refusal is 400 INVALID_JSON naming the field where it can.
 */
import { type AnyNode, parse as parseTree } from '@humanwhocodes/momoa'
import { SigilError, fieldError } from '../../api/errors.js'
import { fieldPath } from '../../api/validation.js'

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** A UTF-16 surrogate that is not half of a pair (with the `u` flag, pairs are one code point). */
const LONE_SURROGATE = /[\ud800-\udfff]/u

function invalidJson(description: string, field?: string): SigilError {
  if (field === undefined) return new SigilError('INVALID_JSON', `request body ${description}`)
  return fieldError('INVALID_JSON', field, description)
}

/** What a string (value or member name) must not contain, or undefined. */
function badText(s: string): string | undefined {
  if (LONE_SURROGATE.test(s)) return 'must be well-formed Unicode (a lone UTF-16 surrogate)'
  if (s.includes('\u0000')) return 'must not contain NUL characters (\\u0000)'
  return undefined
}

/** Checks the I-JSON rules on the tree, without recursion (a body may nest deeply). */
function checkTree(root: AnyNode): void {
  type Item = { node: AnyNode; path: PropertyKey[] }
  const stack: Item[] = [{ node: root, path: [] }]
  while (stack.length > 0) {
    const { node, path } = stack.pop()!
    if (node.type === 'String') {
      const bad = badText(node.value)
      if (bad) throw invalidJson(bad, fieldPath('', path))
    } else if (node.type === 'Array') {
      node.elements.forEach((e, i) => stack.push({ node: e.value, path: [...path, i] }))
    } else if (node.type === 'Object') {
      const seen = new Set<string>()
      for (const m of node.members) {
        const name = m.name.type === 'String' ? m.name.value : m.name.name
        const at = fieldPath('', [...path, name])
        const bad = badText(name)
        if (bad) throw invalidJson(`member name ${bad}`, at)
        if (seen.has(name)) throw invalidJson('appears more than once in its object (duplicate member names are refused)', at)
        seen.add(name)
        stack.push({ node: m.value, path: [...path, name] })
      }
    }
  }
}

/**
 * Parses a request body as I-JSON, or throws 400 INVALID_JSON. An empty body is refused too:
 * callers that accept one decide so before calling.
 */
export function parseRequestJson(raw: Uint8Array): unknown {
  if (raw.length >= 3 && raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf) {
    throw invalidJson('must not start with a byte order mark')
  }
  let text: string
  try {
    text = UTF8.decode(raw)
  } catch {
    throw invalidJson('is not valid UTF-8')
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    // The engine's message may quote part of the body: it is not passed on.
    throw invalidJson('is not valid JSON')
  }
  let tree: AnyNode
  try {
    tree = parseTree(text, { mode: 'json' }).body
  } catch (e) {
    if (e instanceof RangeError) throw invalidJson('is nested more deeply than this service reads')
    throw invalidJson('is not valid JSON')
  }
  checkTree(tree)
  return value
}
