/**
 * EIP-712 typed data (eth_signTypedData_v4) checked against its own `types` before any approval
 * window opens, and the rows that window shows, built in `types` order (not the
 * dApp's JSON key order), nested structs and arrays flattened to paths like `offer[3].token`.
 *
 * Stricter than the signer (micro-eth-signer `signTyped`): a missing field, an unknown key, a
 * value outside its declared type or a non-standard domain field is refused here, so that what
 * the user reads is exactly what is hashed. Nothing is ever truncated: past
 * {@link MAX_TYPED_ROWS} rows the request is refused instead.
 */
import { getAddress, isAddress } from 'viem'
import type { FieldRow } from '../../../protocol/approvalView'

/** One field of a struct in `types`. */
export type TypedField = { name: string; type: string }

/** The `{ types, primaryType, domain, message }` object after its shape has been parsed. */
export type TypedDataInput = {
  types: Record<string, TypedField[]>
  primaryType: string
  domain: Record<string, unknown>
  message: Record<string, unknown>
}

/** The outcome: every row (domain first, then message), or the path and reason of the first fault. */
export type TypedDataCheck = { ok: true; domain: FieldRow[]; message: FieldRow[] } | { ok: false; reason: string }

/** Most rows (domain + message) a request may have; more is refused with -32602, never cut. */
export const MAX_TYPED_ROWS = 2000
const MAX_DEPTH = 32
const MAX_ARRAY_LENGTH = MAX_TYPED_ROWS

/** The EIP-712 domain fields, in the order the signer derives them when `types.EIP712Domain` is absent. */
export const EIP712_DOMAIN_FIELDS: readonly TypedField[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
  { name: 'salt', type: 'bytes32' },
]

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]{0,255}$/
// Control, zero-width and bidi-override characters: shown escaped so a string cannot disguise itself.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g

class Invalid extends Error {}

type ParsedType =
  | { kind: 'uint' | 'int'; bits: number }
  | { kind: 'address' | 'bool' | 'string' | 'bytes' }
  | { kind: 'fixedBytes'; size: number }
  | { kind: 'struct'; name: string }
  | { kind: 'array'; item: string; length: number | undefined }

/** Parse one declared type; throws {@link Invalid} naming `where` when it is not a valid EIP-712 type. */
function parseType(type: string, types: Record<string, TypedField[]>, where: string): ParsedType {
  const array = /^(.+)\[([0-9]*)\]$/.exec(type)
  if (array) {
    const [, item = '', len = ''] = array
    if (len === '') return { kind: 'array', item, length: undefined }
    const length = Number(len)
    if (!/^[1-9][0-9]*$/.test(len) || length > MAX_ARRAY_LENGTH) throw new Invalid(`${where}: bad array length in type ${type}`)
    return { kind: 'array', item, length }
  }
  if (type === 'address' || type === 'bool' || type === 'string' || type === 'bytes') return { kind: type }
  const int = /^(u?)int([1-9][0-9]*)$/.exec(type)
  if (int) {
    const bits = Number(int[2])
    if (bits % 8 !== 0 || bits > 256) throw new Invalid(`${where}: bad integer type ${type}`)
    return { kind: int[1] === 'u' ? 'uint' : 'int', bits }
  }
  const fixed = /^bytes([1-9][0-9]*)$/.exec(type)
  if (fixed) {
    const size = Number(fixed[1])
    if (size > 32) throw new Invalid(`${where}: bad bytes type ${type}`)
    return { kind: 'fixedBytes', size }
  }
  if (IDENTIFIER.test(type) && Object.hasOwn(types, type)) return { kind: 'struct', name: type }
  throw new Invalid(`${where}: unknown type ${type}`)
}

/** Every struct in `types`: identifier names, unique fields, every field type defined. */
function checkTypes(types: Record<string, TypedField[]>): void {
  for (const [name, fields] of Object.entries(types)) {
    if (!IDENTIFIER.test(name)) throw new Invalid(`types: bad type name ${JSON.stringify(name.slice(0, 64))}`)
    const seen = new Set<string>()
    fields.forEach((field, i) => {
      const where = `types.${name}[${i}]`
      if (!IDENTIFIER.test(field.name)) throw new Invalid(`${where}: bad field name ${JSON.stringify(field.name.slice(0, 64))}`)
      if (seen.has(field.name)) throw new Invalid(`${where}: field ${field.name} appears twice`)
      seen.add(field.name)
      let t = field.type
      for (let p = parseType(t, types, where); p.kind === 'array'; p = parseType(t, types, where)) t = p.item
    })
  }
  const domain = types['EIP712Domain']
  if (domain) {
    for (const field of domain) {
      const standard = EIP712_DOMAIN_FIELDS.find((f) => f.name === field.name)
      if (!standard || standard.type !== field.type) {
        throw new Invalid(`types.EIP712Domain: ${field.name} ${field.type} is not a standard domain field`)
      }
    }
  }
}

/** An integer given as a safe JSON number, a decimal string or a 0x hex string; else null. */
export function typedInteger(v: unknown): bigint | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) ? BigInt(v) : null
  if (typeof v === 'string' && v.length <= 80 && /^(-?[0-9]+|0x[0-9a-fA-F]+)$/.test(v)) return BigInt(v)
  return null
}

/** A string with its invisible characters written as `\u{…}`. */
export function visibleText(s: string): string {
  return s.replace(INVISIBLE, (c) => `\\u{${c.codePointAt(0)?.toString(16).padStart(4, '0')}}`)
}

function atomText(p: ParsedType, value: unknown, where: string): string {
  switch (p.kind) {
    case 'uint':
    case 'int': {
      const n = typedInteger(value)
      if (n === null) throw new Invalid(`${where}: expected an integer (JSON number, decimal or 0x string)`)
      const min = p.kind === 'uint' ? 0n : -(1n << BigInt(p.bits - 1))
      const max = p.kind === 'uint' ? (1n << BigInt(p.bits)) - 1n : (1n << BigInt(p.bits - 1)) - 1n
      if (n < min || n > max) throw new Invalid(`${where}: out of range for ${p.kind}${p.bits}`)
      return n.toString(10)
    }
    case 'address':
      if (typeof value !== 'string' || !isAddress(value, { strict: true })) throw new Invalid(`${where}: expected a 20-byte 0x address`)
      return getAddress(value)
    case 'bool':
      if (typeof value !== 'boolean') throw new Invalid(`${where}: expected true or false`)
      return String(value)
    case 'string':
      if (typeof value !== 'string') throw new Invalid(`${where}: expected a string`)
      return value === '' ? '""' : visibleText(value)
    case 'bytes':
      if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value)) throw new Invalid(`${where}: expected even-length 0x hex`)
      return value.toLowerCase()
    case 'fixedBytes':
      if (typeof value !== 'string' || value.length !== 2 + 2 * p.size || !/^0x[0-9a-fA-F]*$/.test(value)) {
        throw new Invalid(`${where}: expected exactly ${p.size} bytes of 0x hex`)
      }
      return value.toLowerCase()
    default:
      throw new Invalid(`${where}: not an atomic type`)
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Check `value` against `type` and append its rows to `out` (paths relative to the section). */
function walk(
  types: Record<string, TypedField[]>,
  type: string,
  value: unknown,
  path: string,
  section: string,
  depth: number,
  out: FieldRow[],
  budget: { rows: number },
): void {
  const where = path ? `${section}.${path}` : section
  if (depth > MAX_DEPTH) throw new Invalid(`${where}: nested too deeply`)
  const p = parseType(type, types, where)
  const push = (row: FieldRow) => {
    if (++budget.rows > MAX_TYPED_ROWS) throw new Invalid(`typed data has more than ${MAX_TYPED_ROWS} fields`)
    out.push(row)
  }
  if (p.kind === 'array') {
    if (!Array.isArray(value)) throw new Invalid(`${where}: expected an array (${type})`)
    if (p.length !== undefined && value.length !== p.length) throw new Invalid(`${where}: expected ${p.length} items, got ${value.length}`)
    if (value.length > MAX_ARRAY_LENGTH) throw new Invalid(`typed data has more than ${MAX_TYPED_ROWS} fields`)
    if (value.length === 0) push([path || '(root)', '[] (empty)'])
    value.forEach((item, i) => walk(types, p.item, item, `${path}[${i}]`, section, depth + 1, out, budget))
    return
  }
  if (p.kind === 'struct') {
    if (!isPlainObject(value)) throw new Invalid(`${where}: expected an object (${type})`)
    const fields = types[p.name] ?? []
    for (const key of Object.keys(value)) {
      if (!fields.some((f) => f.name === key))
        throw new Invalid(`${where}: unexpected field ${JSON.stringify(key.slice(0, 64))} (not in ${type})`)
    }
    if (fields.length === 0) push([path || '(root)', '{} (empty)'])
    for (const f of fields) {
      const sub = path ? `${path}.${f.name}` : f.name
      if (!Object.hasOwn(value, f.name)) throw new Invalid(`${section}.${sub}: missing (declared as ${f.type})`)
      walk(types, f.type, value[f.name], sub, section, depth + 1, out, budget)
    }
    return
  }
  push([path || '(root)', atomText(p, value, where)])
}

/** The domain's struct type: `types.EIP712Domain` when given, else derived from the domain's keys as the signer does. */
export function domainFields(typed: TypedDataInput): readonly TypedField[] {
  return typed.types['EIP712Domain'] ?? EIP712_DOMAIN_FIELDS.filter((f) => Object.hasOwn(typed.domain, f.name))
}

/**
 * Check `typed` completely and build its rows. A failure names the field path, e.g.
 * `message.offer[3].token: expected a 20-byte 0x address`.
 */
export function checkTypedData(typed: TypedDataInput): TypedDataCheck {
  try {
    checkTypes(typed.types)
    if (typed.primaryType === 'EIP712Domain') throw new Invalid('primaryType: EIP712Domain alone is not signed here')
    if (!IDENTIFIER.test(typed.primaryType) || !Object.hasOwn(typed.types, typed.primaryType)) {
      throw new Invalid(`primaryType: ${JSON.stringify(typed.primaryType.slice(0, 64))} is not defined in types`)
    }
    const withDomain = { ...typed.types, EIP712Domain: [...domainFields(typed)] }
    const budget = { rows: 0 }
    const domain: FieldRow[] = []
    const message: FieldRow[] = []
    walk(withDomain, 'EIP712Domain', typed.domain, '', 'domain', 0, domain, budget)
    walk(withDomain, typed.primaryType, typed.message, '', 'message', 0, message, budget)
    return { ok: true, domain, message }
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, reason: e.message }
    throw e
  }
}
