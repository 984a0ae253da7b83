/**
 * Baseline bodies from an operation's zod schema: the schema is converted with `z.toJSONSchema`
 * and walked into a fast-check arbitrary of valid-ish JSON (refinements are lost: "valid-ish").
 */
import fc from 'fast-check'
import { z } from 'zod'

type JsonSchema = {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  enum?: unknown[]
  const?: unknown
  pattern?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  minItems?: number
  maxItems?: number
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  additionalProperties?: JsonSchema | boolean
}

/** A compressed P-256 public key (the generator point): a well-formed key for any `*PublicKey` field. */
const P256_G = '036b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296'

/** Real ids of the fuzzing organization by field name (singular), so requests reach past the lookups. */
const knownIds = new Map<string, string[]>()

/** Makes baseline bodies use these real values, beside random ones, for id-taking fields. */
export function setKnownIds(ids: Record<string, string[]>): void {
  knownIds.clear()
  for (const [k, v] of Object.entries(ids)) knownIds.set(k, v)
}

/** Strings that make a field plausible where the schema alone says only `string`. */
function stringByName(name: string): fc.Arbitrary<string> | undefined {
  const n = name.toLowerCase()
  if (n.endsWith('publickey')) return fc.constantFrom(P256_G, `04${'11'.repeat(64)}`)
  if (n === 'payload' || n === 'unsignedtransaction') return fc.constantFrom('ab'.repeat(32), '0x02c0', 'hello')
  if (n.includes('email') || n === 'contact') return fc.constantFrom('fuzz@example.com', 'someone@example.org')
  if (n.includes('phone')) return fc.constant('+15555550100')
  if (n.includes('url') || n.includes('origin')) return fc.constantFrom('https://example.com', 'chrome-extension://abc')
  if (n === 'path') return fc.constant("m/44'/60'/0'/0/0")
  if (n.endsWith('id') || n.endsWith('ids') || n === 'fingerprint' || n === 'signwith' || n.endsWith('address')) {
    const known = knownIds.get(name.replace(/s$/, '')) ?? []
    const unknown = fc.oneof(fc.uuid(), fc.constant('0x0000000000000000000000000000000000000001'))
    return known.length > 0 ? fc.oneof(unknown, fc.constantFrom(...known)) : unknown
  }
  return undefined
}

function patternString(pattern: string): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(new RegExp(pattern), { size: 'xsmall' })
  } catch {
    return fc.string()
  }
}

function stringArb(s: JsonSchema, name: string): fc.Arbitrary<string> {
  if (s.pattern) return patternString(s.pattern)
  const byName = stringByName(name)
  if (byName) return byName
  return fc.string({ minLength: Math.max(1, s.minLength ?? 1), maxLength: Math.min(s.maxLength ?? 16, 16) })
}

/** A fast-check arbitrary of JSON values shaped like `s`; optional properties appear at random. */
export function arbitraryOf(s: JsonSchema, name = '', depth = 0): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const)
  if (s.enum && s.enum.length > 0) return fc.constantFrom(...s.enum)
  const alternatives = s.anyOf ?? s.oneOf
  if (alternatives && alternatives.length > 0) return fc.oneof(...alternatives.map((a) => arbitraryOf(a, name, depth)))
  if (s.allOf && s.allOf.length > 0) return arbitraryOf(Object.assign({}, ...s.allOf) as JsonSchema, name, depth)
  const type = Array.isArray(s.type) ? s.type[0] : s.type
  switch (type) {
    case 'object': {
      const props = s.properties ?? {}
      const required = new Set(s.required ?? [])
      const record: Record<string, fc.Arbitrary<unknown>> = {}
      for (const [k, v] of Object.entries(props)) record[k] = arbitraryOf(v, k, depth + 1)
      const requiredKeys = Object.keys(props).filter((k) => required.has(k))
      if (Object.keys(record).length === 0) return fc.constant({})
      return fc.record(record, { requiredKeys })
    }
    case 'array': {
      const min = s.minItems ?? 0
      const max = Math.min(s.maxItems ?? 2, Math.max(min, 2))
      if (depth > 6) return fc.constant([])
      return fc.array(arbitraryOf(s.items ?? {}, name.replace(/s$/, ''), depth + 1), { minLength: min, maxLength: max })
    }
    case 'string':
      return stringArb(s, name)
    case 'integer':
      return fc.integer({ min: s.minimum ?? 0, max: Math.min(s.maximum ?? 100, 1_000_000) })
    case 'number':
      return fc.integer({ min: s.minimum ?? 0, max: Math.min(s.maximum ?? 100, 1_000_000) })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    default:
      return fc.constantFrom('x', 1, true)
  }
}

/** The JSON Schema of a zod schema (input side; refinements and transforms are dropped). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as JsonSchema
}

/** Is this property name one that refers to an existing resource (an id-taking field)? */
export function isIdField(name: string): boolean {
  return /(Id|Ids)$/.test(name) || /^(fingerprint|signWith|address|walletAddress|addresses)$/.test(name)
}

/** Every id-taking field of a schema, as property paths (arrays marked with `[]`). */
export function idFieldsOf(s: JsonSchema, prefix: string[] = [], depth = 0): string[][] {
  const out: string[][] = []
  if (depth > 8) return out
  for (const alt of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) out.push(...idFieldsOf(alt, prefix, depth + 1))
  for (const [k, v] of Object.entries(s.properties ?? {})) {
    const type = Array.isArray(v.type) ? v.type[0] : v.type
    const leafType = type === 'array' ? (v.items?.type as string | undefined) : type
    if (isIdField(k) && (leafType === 'string' || leafType === undefined)) out.push([...prefix, k])
    else if (type === 'object') out.push(...idFieldsOf(v, [...prefix, k], depth + 1))
    else if (type === 'array' && v.items) out.push(...idFieldsOf(v.items, [...prefix, k, '[]'], depth + 1))
  }
  return out
}
