/**
 * The one reader of EIP-712 typed-data JSON (`{types, primaryType, domain, message}`) that both the
 * policy engine (`eth.eip_712`, chains/policy/eip712.ts) and the signer (sign/raw.ts) use: what a
 * policy evaluates is exactly what gets signed, so a payload cannot pass the policies under one
 * reading and be signed under another.
 *
 * The payload is parsed once into a canonical object, read by the declared types:
 * - nesting deeper than {@link MAX_TYPED_DATA_DEPTH} is refused (not skipped: both sides refuse it);
 * - top-level members other than the four are dropped (neither evaluated nor signed);
 * - in `domain` and in every struct, a member the type does not declare, or a declared member that
 *   is missing, is refused (micro-eth-signer would hash a missing struct as zeros);
 * - every atomic value must be of its declared type: integers as JSON safe integers or decimal /
 *   0x strings within the type's range (no spaces, no `1e3`, no `0b`), `bool` as a JSON boolean,
 *   `address` / `bytes<N>` / `bytes` as 0x hex of the right length, `string` as a JSON string;
 * - integers become bigints, hex is lower-cased.
 * The signer hashes the canonical object (so nothing the reader did not read can reach the hash)
 * and the policy facts are built from the same walk. A refusal is INVALID_ARGUMENT naming
 * `payload` (the caller maps it to `parameters.payload` / `parameters.payloads[i]`), with the path
 * of the member at fault. Pure: no database, no network.
 */
import { parseBoundedJson } from '../contractInterfaces.js'
import { chainError } from '../errors.js'

/** How deep typed-data JSON may nest (objects and arrays, the document being 1). */
export const MAX_TYPED_DATA_DEPTH = 32

/** One declared member of a struct. */
export type TypedField = { readonly name: string; readonly type: string }
export type TypedTypes = Readonly<Record<string, readonly TypedField[]>>

/** A canonical value, as signed: integers are bigints, hex is lower case. */
export type CanonicalValue = boolean | bigint | string | readonly CanonicalValue[] | { readonly [key: string]: CanonicalValue }

/** A value as the policy language reads it (`string` members holding hex are lower-cased, as the docs ask). */
export type TypedFact = boolean | bigint | string | readonly TypedFact[] | { readonly [key: string]: TypedFact }

/** The canonical typed data: what is signed. */
export type CanonicalTypedData = {
  readonly types: TypedTypes
  readonly primaryType: string
  readonly domain: { readonly [key: string]: CanonicalValue }
  readonly message: { readonly [key: string]: CanonicalValue }
}

/** The one parse: what is signed, and what policies read of it. */
export type ParsedTypedData = {
  readonly typed: CanonicalTypedData
  readonly facts: { readonly domain: { readonly [key: string]: TypedFact }; readonly message: { readonly [key: string]: TypedFact } }
}

/** The standard domain members, in the order EIP-712 gives them (the domain type when `types` has none). */
const STANDARD_DOMAIN: readonly TypedField[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
  { name: 'salt', type: 'bytes32' },
]

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

class Refusal {
  constructor(readonly message: string) {}
}

const refuse = (at: string, what: string): never => {
  throw new Refusal(`${at}: ${what}`)
}

const HEX_PAYLOAD = /^0x(?:[0-9a-fA-F]{2})*$/
const looksHex = (v: string) => /^0x[0-9a-fA-F]*$/.test(v)

function integer(type: string, signed: boolean, bits: number, v: unknown, at: string): bigint {
  let n: bigint | undefined
  if (typeof v === 'number' && Number.isSafeInteger(v)) n = BigInt(v)
  else if (typeof v === 'string' && /^(?:-?[0-9]{1,80}|0x[0-9a-fA-F]{1,80})$/.test(v)) n = BigInt(v)
  if (n === undefined) {
    return refuse(at, `${type} must be a JSON safe integer or a decimal or 0x string (large integers as strings)`)
  }
  const min = signed ? -(2n ** BigInt(bits - 1)) : 0n
  const max = signed ? 2n ** BigInt(bits - 1) - 1n : 2n ** BigInt(bits) - 1n
  if (n < min || n > max) return refuse(at, `out of range for ${type}`)
  return n
}

/** Reads `v` as a value of declared `type`: [canonical, fact]. Recursion is bounded by the JSON depth. */
function read(types: TypedTypes, type: string, v: unknown, at: string): [CanonicalValue, TypedFact] {
  const array = /^(.+)\[(\d*)\]$/.exec(type)
  if (array) {
    if (!Array.isArray(v)) return refuse(at, `${type} must be an array`)
    if (array[2] !== '' && v.length !== Number(array[2])) return refuse(at, `${type} must have ${array[2]} elements`)
    const canonical: CanonicalValue[] = []
    const facts: TypedFact[] = []
    for (const [i, x] of v.entries()) {
      const [c, f] = read(types, array[1] as string, x, `${at}[${i}]`)
      canonical.push(c)
      facts.push(f)
    }
    return [canonical, facts]
  }
  const fields = Object.hasOwn(types, type) ? types[type] : undefined
  if (fields) {
    if (!isObject(v)) return refuse(at, `${type} must be an object`)
    return struct(types, type, fields, v, at)
  }
  const int = /^(u?)int(\d*)$/.exec(type)
  if (int) {
    const bits = int[2] === '' ? 256 : Number(int[2])
    if (!(bits >= 8 && bits <= 256 && bits % 8 === 0)) return refuse(at, `unknown type ${type}`)
    const n = integer(type, int[1] === '', bits, v, at)
    return [n, n]
  }
  switch (type) {
    case 'bool':
      if (typeof v !== 'boolean') return refuse(at, 'bool must be true or false')
      return [v, v]
    case 'address':
      if (typeof v !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(v)) return refuse(at, 'address must be 0x and 40 hex digits')
      return [v.toLowerCase(), v.toLowerCase()]
    case 'string':
      if (typeof v !== 'string') return refuse(at, 'string must be a JSON string')
      return [v, looksHex(v) ? v.toLowerCase() : v]
    case 'bytes':
      if (typeof v !== 'string' || !HEX_PAYLOAD.test(v)) return refuse(at, 'bytes must be 0x and an even number of hex digits')
      return [v.toLowerCase(), v.toLowerCase()]
    default:
      break
  }
  const bytes = /^bytes([1-9][0-9]?)$/.exec(type)
  if (bytes && Number(bytes[1]) <= 32) {
    const n = Number(bytes[1])
    if (typeof v !== 'string' || !HEX_PAYLOAD.test(v) || v.length !== 2 + 2 * n)
      return refuse(at, `${type} must be 0x and ${2 * n} hex digits`)
    return [v.toLowerCase(), v.toLowerCase()]
  }
  return refuse(at, `unknown type ${type}`)
}

function struct(
  types: TypedTypes,
  type: string,
  fields: readonly TypedField[],
  v: Record<string, unknown>,
  at: string,
): [{ [key: string]: CanonicalValue }, { [key: string]: TypedFact }] {
  const declared = new Set(fields.map((f) => f.name))
  for (const k of Object.keys(v)) if (!declared.has(k)) refuse(`${at}.${k}`, `not a member of ${type}`)
  const canonical: Record<string, CanonicalValue> = {}
  const facts: Record<string, TypedFact> = {}
  for (const f of fields) {
    if (!Object.hasOwn(v, f.name)) refuse(`${at}.${f.name}`, `missing (a member of ${type})`)
    const [c, x] = read(types, f.type, v[f.name], `${at}.${f.name}`)
    canonical[f.name] = c
    facts[f.name] = x
  }
  return [canonical, facts]
}

function typesOf(v: unknown): TypedTypes {
  if (!isObject(v)) return refuse('types', 'must be an object of struct definitions')
  const out: Record<string, TypedField[]> = {}
  for (const [name, fields] of Object.entries(v)) {
    if (!Array.isArray(fields)) return refuse(`types.${name}`, 'must be an array of {name, type}')
    const list: TypedField[] = []
    const seen = new Set<string>()
    for (const [i, f] of fields.entries()) {
      if (!isObject(f) || typeof f.name !== 'string' || typeof f.type !== 'string') {
        return refuse(`types.${name}[${i}]`, 'must be {name, type} with string members')
      }
      if (seen.has(f.name)) return refuse(`types.${name}[${i}]`, `member ${f.name} declared twice`)
      seen.add(f.name)
      list.push({ name: f.name, type: f.type })
    }
    out[name] = list
  }
  return out
}

/** The parse, or a refusal's message (path and reason; no key material, bounded length). */
export function readTypedData(payload: string): { ok: true; value: ParsedTypedData } | { ok: false; problem: string } {
  const parsed = parseBoundedJson(payload, MAX_TYPED_DATA_DEPTH)
  if (!parsed.ok) return { ok: false, problem: `EIP-712 typed data: ${parsed.problem}` }
  const doc = parsed.value
  try {
    if (!isObject(doc)) return refuse('typed data', 'must be a JSON object {types, primaryType, domain, message}')
    const types = typesOf(doc.types)
    const { primaryType, domain, message } = doc
    if (typeof primaryType !== 'string' || !Object.hasOwn(types, primaryType)) {
      return refuse('primaryType', 'must name a struct of types')
    }
    if (!isObject(domain)) return refuse('domain', 'must be an object')
    if (!isObject(message)) return refuse('message', 'must be an object')
    const domainType = Object.hasOwn(types, 'EIP712Domain')
      ? (types.EIP712Domain as readonly TypedField[])
      : STANDARD_DOMAIN.filter((f) => Object.hasOwn(domain, f.name))
    const [canonicalDomain, domainFacts] = struct(types, 'EIP712Domain', domainType, domain, 'domain')
    const [canonicalMessage, messageFacts] = struct(types, primaryType, types[primaryType] as readonly TypedField[], message, 'message')
    return {
      ok: true,
      value: {
        typed: { types, primaryType, domain: canonicalDomain, message: canonicalMessage },
        facts: { domain: domainFacts, message: messageFacts },
      },
    }
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, problem: `EIP-712 typed data: ${e.message.slice(0, 300)}` }
    throw e
  }
}

/** {@link readTypedData}, refusing with INVALID_ARGUMENT naming `payload`. */
export function parseTypedData(payload: string): ParsedTypedData {
  const r = readTypedData(payload)
  if (!r.ok) throw chainError('payload', r.problem)
  return r.value
}
