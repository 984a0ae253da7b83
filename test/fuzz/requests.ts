/**
 * Request plans for the fuzz suite: per operation path, one fast-check arbitrary per input
 * class. A plan is plain data (printable, reproducible from the seed); `render` turns it into
 * the exact bytes sent.
 */
import fc from 'fast-check'
import type { QueryDefinition, SubmitDefinition } from '../../src/api/operation.js'
import { QUERY_OPERATIONS, SUBMIT_OPERATIONS } from '../../src/api/registry.js'
import { arbitraryOf, idFieldsOf, jsonSchemaOf } from './schema.js'

export const MAX_BODY_BYTES = 1024 * 1024
/** Replaced by the current time in milliseconds when the request is sent. */
export const NOW = '__FUZZ_NOW__'
/** `"__FUZZ_RAW_<n>__"` is replaced by `plan.raw[n]` verbatim after JSON.stringify. */
const RAW = (n: number) => `__FUZZ_RAW_${n}__`

export const CLASSES = [
  'baseline',
  'malformedJson',
  'wrongTypes',
  'missingField',
  'extraField',
  'hugeString',
  'hugeArray',
  'overLimit',
  'deepNesting',
  'oddUnicode',
  'numberStringSwap',
  'extremeNumbers',
  'wrongOperationType',
  'stampMissing',
  'stampGarbage',
  'stampUnknownKey',
  'stampOtherBody',
  'stampReplay',
  'crossTenant',
  // I-JSON, content types, array bounds
  'loneSurrogate',
  'duplicateKey',
  'wrongContentType',
  'arrayBounds',
] as const
export type FuzzClass = (typeof CLASSES)[number]

export type StampMode =
  | { kind: 'valid' }
  | { kind: 'none' }
  | { kind: 'garbage'; header: string; value: string }
  | { kind: 'unknownKey' }
  | { kind: 'otherBody' }

/** One planned request. `crossIds` holds the values of organization B it carries. */
export type Plan = {
  cls: FuzzClass
  path: string
  body: unknown
  /** Text-level transform of the serialized body. */
  text?: { kind: string; arg?: unknown } | undefined
  raw?: string[]
  stamp: StampMode
  crossOrgB?: boolean
  crossIds?: string[]
  /** Sent with chunked transfer encoding (no Content-Length). */
  chunked?: boolean
  /** The Content-Type header sent (default `application/json`). */
  contentType?: string
  /** What the class requires of the answer, beyond "never a 5xx". */
  expect?: { status: number; reason?: string; field?: string } | undefined
}

export type Operation = { path: string; submit?: SubmitDefinition[]; query?: QueryDefinition }

/** Every operation path, straight from the registry (several submit `type` versions may share a path). */
export function operations(): Operation[] {
  const byPath = new Map<string, SubmitDefinition[]>()
  for (const d of SUBMIT_OPERATIONS as readonly SubmitDefinition[]) byPath.set(d.path, [...(byPath.get(d.path) ?? []), d])
  const out: Operation[] = [...byPath].map(([path, submit]) => ({ path, submit }))
  for (const q of QUERY_OPERATIONS as readonly QueryDefinition[]) out.push({ path: q.path, query: q })
  return out
}

export const ALL_TYPES: string[] = (SUBMIT_OPERATIONS as readonly SubmitDefinition[]).map((d) => d.type)

/** Values of organization B (and of A, the fuzzing organization) the plans need. */
export type Tenants = {
  orgA: string
  orgB: string
  /** B's real value for an id-taking field name. */
  bValueFor(field: string): string
}

type Seg = string | number

function nodes(v: unknown, path: Seg[] = [], out: Array<{ path: Seg[]; value: unknown }> = []) {
  out.push({ path, value: v })
  if (Array.isArray(v)) v.forEach((x, i) => nodes(x, [...path, i], out))
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) nodes(x, [...path, k], out)
  return out
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T
}

function setAt(root: unknown, path: Seg[], value: unknown): unknown {
  if (path.length === 0) return value
  const copy = clone(root)
  let cur = copy as Record<string | number, unknown>
  for (const seg of path.slice(0, -1)) cur = cur[seg] as Record<string | number, unknown>
  cur[path[path.length - 1]!] = value
  return copy
}

function deleteAt(root: unknown, path: Seg[]): unknown {
  if (path.length === 0) return undefined
  const copy = clone(root)
  let cur = copy as Record<string | number, unknown>
  for (const seg of path.slice(0, -1)) cur = cur[seg] as Record<string | number, unknown>
  const last = path[path.length - 1]!
  if (Array.isArray(cur) && typeof last === 'number') cur.splice(last, 1)
  else delete cur[last]
  return copy
}

function pick<T>(list: T[], n: number): T | undefined {
  return list.length === 0 ? undefined : list[n % list.length]
}

const byteLength = (s: string) => Buffer.byteLength(s, 'utf8')

/** The baseline (valid-ish) body of an operation, organization A, fresh timestamp. */
function baseline(op: Operation, t: Tenants): fc.Arbitrary<Record<string, unknown>> {
  if (op.submit) {
    return fc.constantFrom(...op.submit).chain((d) =>
      fc.tuple(arbitraryOf(jsonSchemaOf(d.parameters)), fc.boolean()).map(([parameters, proofs]) => ({
        parameters,
        organizationId: t.orgA,
        timestampMs: NOW,
        type: d.type,
        ...(proofs ? { generateAppProofs: true } : {}),
      })),
    )
  }
  return arbitraryOf(jsonSchemaOf(op.query!.request)).map((r) => ({ ...(r as object), organizationId: t.orgA }))
}

const ODD = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\udc00y',
  '\u202e\u202d',
  '\u200b\u200c\u200d',
  '\ufeff',
  '\uffff\ufffe',
  '😀👩‍👩‍👧‍👦',
  'e\u0301\u0301\u0301',
  '\u0001\u001f\u007f',
  '\\',
  '"',
  '\u2028\u2029',
  '%00',
  '${x}',
  "'; DROP TABLE users; --",
  '\u0000\ud800',
]

const EXTREME: Array<{ value?: unknown; raw?: string }> = [
  { value: 1e308 },
  { value: -1e308 },
  { value: -1 },
  { value: 2 ** 53 + 1 },
  { value: -0 },
  { value: 0.5 },
  { value: Number.MAX_SAFE_INTEGER },
  { value: 'NaN' },
  { value: 'Infinity' },
  { value: '-Infinity' },
  { value: '-1' },
  { value: '1e308' },
  { value: '9007199254740993' },
  { value: '99999999999999999999999999' },
  { value: '0x10' },
  { value: ' 12' },
  { value: '1.5' },
  { raw: '1e400' },
  { raw: '-1e400' },
  { raw: '1e-400' },
  { raw: '1'.repeat(400) },
  { raw: '-0.0000000000000000000000001' },
]

const WRONG_VALUES = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
  fc.string({ maxLength: 5 }),
  fc.double(),
)

/** Lone UTF-16 surrogates, alone and inside text. */
const LONE = ['\ud800', '\udfff', 'x\udc00y', 'a\ud83d', '\ude00b']

/** Content types other than JSON (415), and JSON ones with parameters or other case (accepted). */
const NOT_JSON = [
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'text/json',
  'application/jsonx',
  'application/json-seq',
  '',
]
const JSON_TYPES = ['application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json;charset=UTF-8']

/** Paths (with `[]` for array elements) of every bounded array in a JSON schema, with its maximum and element schema. */
function boundedArrays(s: JsonSchemaLike, path: Seg[] = [], out: Array<{ path: Seg[]; max: number; items: JsonSchemaLike }> = []) {
  for (const alt of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) boundedArrays(alt, path, out)
  if (s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))) {
    if (typeof s.maxItems === 'number' && s.items) out.push({ path, max: s.maxItems, items: s.items })
    if (s.items) boundedArrays(s.items, [...path, 0], out)
  }
  for (const [k, v] of Object.entries(s.properties ?? {})) boundedArrays(v, [...path, k], out)
  return out
}
type JsonSchemaLike = ReturnType<typeof jsonSchemaOf> & {
  type?: string | string[]
  properties?: Record<string, JsonSchemaLike>
  items?: JsonSchemaLike
  maxItems?: number
  anyOf?: JsonSchemaLike[]
  oneOf?: JsonSchemaLike[]
  allOf?: JsonSchemaLike[]
}

/** Sets `value` at `path`, creating objects and one-element arrays on the way. */
function setCreating(root: unknown, path: Seg[], value: unknown): unknown {
  const copy = clone(root) as Record<string | number, unknown>
  let cur = copy
  path.forEach((seg, i) => {
    if (i === path.length - 1) {
      cur[seg] = value
      return
    }
    const wantArray = typeof path[i + 1] === 'number'
    let next = cur[seg]
    if (wantArray ? !Array.isArray(next) || next.length === 0 : !next || typeof next !== 'object' || Array.isArray(next)) {
      next = cur[seg] = wantArray ? [{}] : {}
    }
    cur = next as Record<string | number, unknown>
  })
  return copy
}

const ASCII = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 200 })

/** The arbitrary of plans of one class for one operation. */
export function planArbitrary(op: Operation, cls: FuzzClass, t: Tenants): fc.Arbitrary<Plan> {
  const base = baseline(op, t)
  const valid: StampMode = { kind: 'valid' }
  const plan = (body: unknown, extra: Partial<Plan> = {}): Plan => ({ cls, path: op.path, body, stamp: valid, ...extra })
  switch (cls) {
    case 'baseline':
      return base.map((b) => plan(b))
    case 'malformedJson':
      return fc
        .tuple(
          base,
          fc.oneof(
            fc.record({ kind: fc.constant('truncate'), arg: fc.double({ min: 0, max: 1, noNaN: true }) }),
            fc.record({ kind: fc.constant('garbage'), arg: fc.string({ maxLength: 50 }) }),
            fc.record({
              kind: fc.constantFrom(
                'trailingComma',
                'bom',
                'invalidUtf8',
                'empty',
                'singleQuotes',
                'rawControl',
                'concatenated',
                'nulByte',
              ),
            }),
            fc.record({ kind: fc.constant('primitive'), arg: fc.constantFrom('null', '[]', '123', '"x"', 'true', '[{}]', '{}') }),
          ),
        )
        .map(([b, text]) => plan(b, { text }))
    case 'wrongTypes':
      return fc.tuple(base, fc.nat(), WRONG_VALUES).map(([b, n, v]) => {
        const target = pick(nodes(b).slice(1), n)
        return plan(target ? setAt(b, target.path, v) : v)
      })
    case 'missingField':
      return fc.tuple(base, fc.nat(), fc.boolean()).map(([b, n, envelope]) => {
        const all = nodes(b).filter((x) => typeof x.path[x.path.length - 1] === 'string')
        const list = envelope ? all.filter((x) => x.path.length === 1) : all
        const target = pick(list, n)
        return plan(target ? deleteAt(b, target.path) : b)
      })
    case 'extraField':
      return fc
        .tuple(
          base,
          fc.nat(),
          fc.oneof(
            fc.string({ maxLength: 12 }),
            fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'type', 'organizationId'),
          ),
          fc.jsonValue({ maxDepth: 3 }),
        )
        .map(([b, n, key, value]) => {
          const objects = nodes(b).filter((x) => x.value !== null && typeof x.value === 'object' && !Array.isArray(x.value))
          const target = pick(objects, n)!
          // JSON text so that `__proto__` stays an own key.
          const i = 0
          const obj = setAt(b, [...target.path, RAW(i)], null)
          return plan(obj, { raw: [`${JSON.stringify(key)}`, JSON.stringify(value)], text: { kind: 'rawKey' } })
        })
    case 'hugeString':
      return fc
        .tuple(base, fc.nat(), fc.integer({ min: 10_000, max: MAX_BODY_BYTES }), fc.constantFrom('a', 'é', '😀', '\\', '"', '\u200b', '0'))
        .map(([b, n, size, ch]) => {
          const target = pick(nodes(b).slice(1), n)
          return plan(b, { text: { kind: 'hugeString', arg: { path: target?.path ?? [], size, ch } } })
        })
    case 'hugeArray':
      return fc
        .tuple(base, fc.nat(), fc.integer({ min: 1_000, max: 300_000 }), fc.constantFrom('0', '"x"', '{}', '[]', 'null', 'elem'))
        .map(([b, n, count, elem]) => {
          const target = pick(nodes(b).slice(1), n)
          return plan(b, { text: { kind: 'hugeArray', arg: { path: target?.path ?? [], count, elem } } })
        })
    case 'overLimit':
      return fc
        .tuple(base, fc.integer({ min: 1, max: 4096 }), fc.boolean())
        .map(([b, extra, chunked]) => plan(b, { text: { kind: 'overLimit', arg: extra }, chunked }))
    case 'deepNesting':
      return fc
        .tuple(base, fc.nat(), fc.integer({ min: 64, max: 400_000 }), fc.constantFrom('[', '{"a":', '{"":'))
        .map(([b, n, depth, open]) => {
          const target = pick(nodes(b).slice(1), n)
          return plan(b, { text: { kind: 'deep', arg: { path: target?.path ?? [], depth, open } } })
        })
    case 'oddUnicode':
      return fc
        .tuple(base, fc.nat(), fc.constantFrom(...ODD), fc.constantFrom('prefix', 'suffix', 'replace', 'key'))
        .map(([b, n, odd, where]) => {
          if (where === 'key') {
            const objects = nodes(b).filter((x) => x.value !== null && typeof x.value === 'object' && !Array.isArray(x.value))
            const target = pick(objects, n)!
            return plan(setAt(b, [...target.path, `k${odd}`], odd))
          }
          const strings = nodes(b).filter((x) => typeof x.value === 'string')
          const target = pick(strings, n)
          if (!target) return plan(b)
          const s = target.value as string
          const v = where === 'prefix' ? odd + s : where === 'suffix' ? s + odd : odd
          return plan(setAt(b, target.path, v))
        })
    case 'loneSurrogate':
      // Every string field and member name of every path, in turn (fast-check picks the node).
      return fc.tuple(base, fc.nat(), fc.constantFrom(...LONE), fc.boolean()).map(([b, n, lone, inKey]) => {
        if (inKey) {
          const objects = nodes(b).filter((x) => x.value !== null && typeof x.value === 'object' && !Array.isArray(x.value))
          const target = pick(objects, n)!
          return plan(setAt(b, [...target.path, `k${lone}`], 'v'), { expect: { status: 400, reason: 'INVALID_JSON' } })
        }
        const strings = nodes(b).filter((x) => typeof x.value === 'string' && x.path[0] !== 'timestampMs')
        const target = pick(strings, n)
        const body = target ? setAt(b, target.path, `${target.value as string}${lone}`) : { ...b, extra: lone }
        return plan(body, { expect: { status: 400, reason: 'INVALID_JSON' } })
      })
    case 'duplicateKey':
      // A member repeated in any object of the body, with the same or another value.
      return fc.tuple(base, fc.nat(), fc.boolean()).map(([b, n, same]) => {
        const objects = nodes(b).filter(
          (x) => x.value !== null && typeof x.value === 'object' && !Array.isArray(x.value) && Object.keys(x.value as object).length > 0,
        )
        const target = pick(objects, n)!
        const obj = target.value as Record<string, unknown>
        const key = Object.keys(obj)[n % Object.keys(obj).length]!
        const value = same ? obj[key] : target.path.length === 0 && key === 'organizationId' ? t.orgB : 'other'
        return plan(setAt(b, [...target.path, RAW(0)], null), {
          raw: [JSON.stringify(key), JSON.stringify(value)],
          text: { kind: 'rawKey' },
          expect: { status: 400, reason: 'INVALID_JSON' },
        })
      })
    case 'wrongContentType':
      return fc.tuple(base, fc.constantFrom(...NOT_JSON, ...JSON_TYPES)).map(([b, contentType]) =>
        plan(b, {
          contentType,
          expect: JSON_TYPES.includes(contentType) ? undefined : { status: 415, reason: 'UNSUPPORTED_MEDIA_TYPE' },
        }),
      )
    case 'arrayBounds': {
      // Each bounded array of the operation at its maximum (accepted by the schema) and one beyond (400 naming it).
      const schema = (op.submit ? jsonSchemaOf(op.submit[0]!.parameters) : jsonSchemaOf(op.query!.request)) as JsonSchemaLike
      const prefix: Seg[] = op.submit ? ['parameters'] : []
      const arrays = boundedArrays(schema)
      if (arrays.length === 0) return base.map((b) => plan(b))
      return fc
        .tuple(base, fc.nat(), fc.boolean())
        .chain(([b, n, over]) => {
          const a = arrays[n % arrays.length]!
          return arbitraryOf(a.items as never).map((item) => ({ b, a, over, item }))
        })
        .map(({ b, a, over, item }) => {
          const path = [...prefix, ...a.path]
          const body = op.submit && b.type !== op.submit[0]!.type ? { ...b, type: op.submit[0]!.type } : b
          const field = path.map((seg, i) => (typeof seg === 'number' ? `[${seg}]` : i === 0 ? seg : `.${seg}`)).join('')
          return plan(setCreating(body, path, Array(a.max + (over ? 1 : 0)).fill(item)), {
            expect: over ? { status: 400, reason: 'INVALID_ARGUMENT', field } : undefined,
          })
        })
    }
    case 'numberStringSwap':
      return fc.tuple(base, fc.nat()).map(([b, n]) => {
        const leaves = nodes(b).filter(
          (x) => typeof x.value === 'number' || (typeof x.value === 'string' && /^-?\d+(\.\d+)?$/.test(x.value as string)),
        )
        const target = pick(leaves, n)
        if (!target) {
          const strings = nodes(b).filter((x) => typeof x.value === 'string')
          const s = pick(strings, n)
          return plan(s ? setAt(b, s.path, 12) : b)
        }
        const v = typeof target.value === 'number' ? String(target.value) : Number(target.value)
        return plan(setAt(b, target.path, v))
      })
    case 'extremeNumbers':
      return fc.tuple(base, fc.nat(), fc.constantFrom(...EXTREME), fc.boolean()).map(([b, n, x, ts]) => {
        const leaves = nodes(b).slice(1)
        const target = ts && op.submit ? { path: ['timestampMs'] as Seg[] } : pick(leaves, n)
        if (!target) return plan(b)
        if (x.raw !== undefined) return plan(setAt(b, target.path, RAW(0)), { raw: [x.raw] })
        return plan(setAt(b, target.path, x.value))
      })
    case 'wrongOperationType': {
      const own = new Set<string>(op.submit?.map((d) => d.type) ?? [])
      const others = ALL_TYPES.filter((x) => !own.has(x))
      const wrong = fc.oneof(
        fc.constantFrom(...others),
        fc.constantFrom(
          'ACTIVITY_TYPE_NOPE',
          '',
          'activity_type_create_wallet',
          'ACTIVITY_TYPE_CREATE_WALLET_V99',
          123,
          null,
          true,
          ['ACTIVITY_TYPE_CREATE_WALLET'],
          {},
        ),
      )
      return fc.tuple(base, wrong).map(([b, type]) => plan({ ...b, type }))
    }
    case 'stampMissing':
      return base.map((b) => plan(b, { stamp: { kind: 'none' } }))
    case 'stampGarbage': {
      const structured = fc
        .record(
          {
            publicKey: fc.oneof(ASCII, fc.constantFrom('02' + '00'.repeat(32), '04' + 'ff'.repeat(64)), fc.integer()),
            scheme: fc.oneof(fc.constantFrom('SIGNATURE_SCHEME_TK_API_P256', 'SIGNATURE_SCHEME_TK_API_ED25519', 'nope'), fc.integer()),
            signature: fc.oneof(ASCII, fc.constant('30' + '00'.repeat(70)), fc.constant(null)),
          },
          { requiredKeys: [] },
        )
        .map((o) => Buffer.from(JSON.stringify(o)).toString('base64url'))
      const b64 = fc.oneof(
        ASCII,
        fc.uint8Array({ maxLength: 80 }).map((b) => Buffer.from(b).toString('base64url')),
        fc.integer(),
      )
      // The shapes of the WebAuthn and attested stamps (B1.2, B1.3), with garbage inside.
      const webauthn = fc
        .record({ credentialId: b64, authenticatorData: b64, clientDataJson: b64, signature: b64 }, { requiredKeys: [] })
        .map((o) => JSON.stringify(o))
      const attested = fc
        .record(
          {
            publicKeyAttestation: b64,
            scheme: fc.constantFrom('STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN', 'x'),
            publicKey: b64,
            signature: b64,
          },
          { requiredKeys: [] },
        )
        .map((o) => Buffer.from(JSON.stringify(o)).toString('base64url'))
      const value = fc.oneof(
        ASCII,
        structured,
        webauthn,
        attested,
        fc.constant('x'.repeat(9000)),
        fc.constant(Buffer.from('[]').toString('base64url')),
      )
      return fc
        .tuple(base, fc.constantFrom('X-Stamp', 'X-Stamp-Webauthn', 'X-Stamp-Attested'), value)
        .map(([b, header, v]) => plan(b, { stamp: { kind: 'garbage', header, value: v } }))
    }
    case 'stampUnknownKey':
      return base.map((b) => plan(b, { stamp: { kind: 'unknownKey' } }))
    case 'stampOtherBody':
      return base.map((b) => plan(b, { stamp: { kind: 'otherBody' } }))
    case 'stampReplay': {
      const old = fc.constantFrom(-3_600_000, -6 * 60_000, 6 * 60_000, -86_400_000 * 365)
      return fc.tuple(base, old).map(([b, offset]) => plan({ ...b, timestampMs: `${NOW}${offset}` }))
    }
    case 'crossTenant': {
      const schema = op.submit ? null : jsonSchemaOf(op.query!.request)
      return fc.tuple(base, fc.boolean(), fc.nat()).map(([b, toB, n]) => {
        if (toB) return plan({ ...b, organizationId: t.orgB }, { crossOrgB: true, crossIds: [t.orgB] })
        const def = op.submit?.find((d) => d.type === (b as { type?: string }).type)
        const fields = def ? idFieldsOf(jsonSchemaOf(def.parameters)).map((p) => ['parameters', ...p]) : idFieldsOf(schema!)
        const usable = fields.filter((p) => p[p.length - 1] !== 'organizationId' || p.length > 1)
        if (usable.length === 0) return plan({ ...b, organizationId: t.orgB }, { crossOrgB: true, crossIds: [t.orgB] })
        // Every id field at once, or just one of them (the others keep baseline values).
        const chosen = n % (usable.length + 1) === usable.length ? usable : [usable[n % (usable.length + 1)]!]
        let body: unknown = b
        const ids: string[] = []
        for (const p of chosen) {
          const value = t.bValueFor(p[p.length - 1]!.replace(/\[\]$/, ''))
          body = fillPath(body, p, value)
          ids.push(value)
        }
        return plan(body, { crossIds: ids })
      })
    }
  }
}

/** Sets `value` at a schema path (`[]` segments: arrays, filled with one element when empty). */
function fillPath(body: unknown, path: string[], value: string): unknown {
  const copy = clone(body) as Record<string, unknown>
  const go = (cur: Record<string, unknown>, i: number): void => {
    const seg = path[i]!
    const last = i === path.length - 1
    const next = path[i + 1]
    if (last) {
      cur[seg] = value
      return
    }
    if (next === '[]') {
      const isLeafArray = i + 1 === path.length - 1
      if (isLeafArray) {
        cur[seg] = [value]
        return
      }
      let arr = cur[seg]
      if (!Array.isArray(arr) || arr.length === 0) arr = cur[seg] = [{}]
      for (const el of arr as unknown[]) if (el && typeof el === 'object') go(el as Record<string, unknown>, i + 2)
      return
    }
    let child = cur[seg]
    if (!child || typeof child !== 'object' || Array.isArray(child)) child = cur[seg] = {}
    go(child as Record<string, unknown>, i + 1)
  }
  go(copy, 0)
  return copy
}

/** The exact request body of a plan, at time `now`. */
export function render(p: Plan, now: number): string | Uint8Array {
  let json = JSON.stringify(p.body) ?? ''
  json = json.replace(new RegExp(`"${NOW}(-?\\d+)?"`, 'g'), (_m, off: string | undefined) => `"${now + Number(off ?? 0)}"`)
  if (p.text?.kind === 'rawKey') {
    json = json.replace(`"${RAW(0)}":null`, `${p.raw![0]}:${p.raw![1]}`)
  } else if (p.raw) {
    p.raw.forEach((r, i) => (json = json.replace(`"${RAW(i)}"`, r)))
  }
  const kind = p.text?.kind
  const arg = p.text?.arg as Record<string, unknown> | undefined
  switch (kind) {
    case 'truncate':
      return json.slice(0, Math.floor(json.length * (p.text!.arg as number)))
    case 'garbage':
      return String(p.text!.arg)
    case 'trailingComma':
      return json.replace(/}$/, ',}')
    case 'bom':
      return `\ufeff${json}`
    case 'invalidUtf8': {
      const bytes = Buffer.from(json)
      const at = Math.max(1, bytes.indexOf(0x3a))
      return new Uint8Array(
        Buffer.concat([bytes.subarray(0, at + 2), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), bytes.subarray(at + 2)]),
      )
    }
    case 'empty':
      return ''
    case 'singleQuotes':
      return json.replace(/"/g, "'")
    case 'rawControl':
      return json.replace(/":"/, '":"\n\t\u0001')
    case 'nulByte':
      return json.replace(/":"/, '":"\u0000')
    case 'concatenated':
      return json + json
    case 'primitive':
      return String(p.text!.arg)
    case 'hugeString': {
      const { path, size, ch } = arg as { path: Seg[]; size: number; ch: string }
      const marked = JSON.stringify(setAt(p.body, path, RAW(0)))
      const baseBytes = byteLength(json) + 64
      const per = byteLength(JSON.stringify(ch)) - 2
      const count = Math.max(0, Math.floor(Math.min(size, MAX_BODY_BYTES - baseBytes) / per))
      return render({ ...p, body: JSON.parse(marked), text: undefined, raw: [JSON.stringify(ch.repeat(count))] }, now)
    }
    case 'hugeArray': {
      const { path, count, elem } = arg as { path: Seg[]; count: number; elem: string }
      const e = elem === 'elem' ? json : elem // the body itself, timestamps filled in
      const room = MAX_BODY_BYTES - byteLength(json) - 64
      const n = Math.max(0, Math.min(count, Math.floor(room / (byteLength(e) + 1))))
      const marked = JSON.stringify(setAt(p.body, path, RAW(0)))
      return render({ ...p, body: JSON.parse(marked), text: undefined, raw: [`[${Array(n).fill(e).join(',')}]`] }, now)
    }
    case 'deep': {
      const { path, depth, open } = arg as { path: Seg[]; depth: number; open: string }
      const close = open === '[' ? ']' : '}'
      const room = MAX_BODY_BYTES - byteLength(json) - 64
      const d = Math.max(1, Math.min(depth, Math.floor(room / (open.length + 1))))
      const leaf = '1'
      const marked = JSON.stringify(setAt(p.body, path, RAW(0)))
      return render({ ...p, body: JSON.parse(marked), text: undefined, raw: [open.repeat(d) + leaf + close.repeat(d)] }, now)
    }
    case 'overLimit': {
      const pad = MAX_BODY_BYTES - byteLength(json) + (p.text!.arg as number)
      return json.replace(/}$/, `,"pad":"${'p'.repeat(Math.max(0, pad))}"}`)
    }
  }
  return json
}
