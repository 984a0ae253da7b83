/**
 * Every array a request may carry has a maximum length, checked before its elements:
 * a structural walk over every operation's request schema, the zod behaviour boundedArray relies
 * on, and per-operation cases at the maximum and one past it.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { ACTIVITY_STATUSES } from '../../../src/api/enums.js'
import { boundedArray } from '../../../src/api/fields.js'
import {
  MAX_API_KEYS_PER_USER,
  MAX_AUTHENTICATORS_PER_USER,
  MAX_AUTHENTICATOR_TRANSPORTS,
  MAX_ETH_CALLS,
  MAX_RAW_PAYLOADS,
  MAX_SOL_SIGNERS,
  MAX_STATUS_FILTER,
  MAX_USERS,
  MAX_WALLET_ACCOUNTS,
  MAX_WALLETS,
} from '../../../src/api/limits.js'
import { createSubOrganization } from '../../../src/api/operations/create_sub_organization.js'
import { createUsers } from '../../../src/api/operations/create_users.js'
import { createWalletAccounts } from '../../../src/api/operations/create_wallet_accounts.js'
import { deleteApiKeys } from '../../../src/api/operations/delete_api_keys.js'
import { deleteUsers } from '../../../src/api/operations/delete_users.js'
import { deleteWallets } from '../../../src/api/operations/delete_wallets.js'
import { ethSendTransaction } from '../../../src/api/operations/eth_send_transaction.js'
import { listActivities } from '../../../src/api/operations/list_activities.js'
import { signRawPayloads } from '../../../src/api/operations/sign_raw_payloads.js'
import { solSendTransaction } from '../../../src/api/operations/sol_send_transaction.js'
import { QUERY_OPERATIONS, SUBMIT_OPERATIONS } from '../../../src/api/registry.js'
import { parseOrThrow } from '../../../src/api/validation.js'
import { ORG, failure, attestation, subOrgParams } from './fixtures.js'

// ---------------------------------------------------------------------------------------------
// The structural walk
// ---------------------------------------------------------------------------------------------

/** One array (or set, or tuple rest) found in a schema. */
type Bound = { path: string; max: number | undefined; leading: boolean }

type AnySchema = z.core.$ZodType
type Check = { _zod: { def: { check: string; maximum?: number } } }

/** Checks zod runs before it parses any element: size checks only (`min_length`, `max_length`, `length_equals`). */
const SIZE_CHECK = /^(min|max)_(length|size)$|_equals$/

/** The array's maximum, and whether only size checks precede it (so zod checks it before the elements). */
function maximumOf(schema: AnySchema): { max: number | undefined; leading: boolean } {
  const checks = (schema._zod.def.checks ?? []) as unknown as Check[]
  const i = checks.findIndex((c) => c._zod.def.check === 'max_length' || c._zod.def.check === 'max_size')
  if (i < 0) return { max: undefined, leading: false }
  const leading = checks.slice(0, i).every((c) => SIZE_CHECK.test(c._zod.def.check))
  return { max: checks[i]!._zod.def.maximum, leading }
}

/** Schema types that hold no other schema. */
const LEAVES = new Set([
  'string',
  'number',
  'int',
  'boolean',
  'bigint',
  'symbol',
  'null',
  'undefined',
  'void',
  'never',
  'any',
  'unknown',
  'date',
  'nan',
  'enum',
  'literal',
  'template_literal',
  'file',
  'custom',
  'transform',
])

/** Schema types that wrap one `innerType`. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch', 'success', 'promise'])

/**
 * Every array inside `schema`, with its path (`[]` for "each element", `{}` for "each value").
 * A schema type the walk does not know fails loudly, so a new kind of container is looked at.
 */
function arraysIn(schema: AnySchema, path = '', out: Bound[] = [], ancestors = new Set<AnySchema>()): Bound[] {
  // A schema met again below itself is a recursive (lazy) one: its arrays were found the first time.
  if (ancestors.has(schema)) return out
  ancestors.add(schema)
  walkInto(schema, path, out, ancestors)
  ancestors.delete(schema)
  return out
}

function walkInto(schema: AnySchema, path: string, out: Bound[], ancestors: Set<AnySchema>): void {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string }
  const walk = (s: unknown, p: string) => arraysIn(s as AnySchema, p, out, ancestors)
  const at = (key: string) => (path === '' ? key : `${path}.${key}`)
  switch (def.type) {
    case 'array':
      out.push({ path, ...maximumOf(schema) })
      walk(def.element, `${path}[]`)
      break
    case 'set':
      out.push({ path, ...maximumOf(schema) })
      walk(def.valueType, `${path}[]`)
      break
    case 'object':
      for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) walk(v, at(k))
      if (def.catchall) walk(def.catchall, at('{}'))
      break
    case 'union':
      for (const o of def.options as unknown[]) walk(o, path)
      break
    case 'intersection':
      walk(def.left, path)
      walk(def.right, path)
      break
    case 'tuple':
      ;(def.items as unknown[]).forEach((s, i) => walk(s, `${path}[${i}]`))
      // A rest element repeats without bound: no tuple check can cap it.
      if (def.rest) {
        out.push({ path: `${path}[...]`, max: undefined, leading: false })
        walk(def.rest, `${path}[...]`)
      }
      break
    case 'record':
    case 'map':
      walk(def.keyType, `${path}{key}`)
      walk(def.valueType, `${path}{}`)
      break
    case 'pipe':
      walk(def.in, path)
      walk(def.out, path)
      break
    case 'lazy':
      walk((def.getter as () => unknown)(), path)
      break
    default:
      if (WRAPPERS.has(def.type)) walk(def.innerType, path)
      else if (!LEAVES.has(def.type)) throw new Error(`${path || '(root)'}: the walk does not know zod type "${def.type}"`)
  }
}

/** Every request schema on the wire: submit parameters and query requests, named by operation. */
const REQUEST_SCHEMAS: Array<[string, AnySchema]> = [
  ...SUBMIT_OPERATIONS.map((d): [string, AnySchema] => [`${d.name} parameters`, d.parameters]),
  ...QUERY_OPERATIONS.map((d): [string, AnySchema] => [`${d.name} request`, d.request]),
]

describe('the structural walk', () => {
  it('finds arrays through objects, wrappers, unions, records, pipes, lazies and tuples', () => {
    const inner = z.array(z.string())
    const s = z.object({
      a: inner.optional(),
      b: z.union([z.string(), z.object({ c: inner })]),
      d: z.record(z.string(), z.object({ e: inner.nullable().default([]) })),
      f: z.string().pipe(z.string()),
      g: z.lazy(() => z.object({ h: inner })),
      i: z.tuple([z.string()]).rest(z.number()),
      j: z.object({}).catchall(inner),
    })
    const paths = arraysIn(s).map((b) => b.path)
    expect(paths).toEqual(expect.arrayContaining(['a', 'b.c', 'd{}.e', 'g.h', 'i[...]', 'j.{}']))
  })

  it('tells a leading maximum from a missing or late one', () => {
    const [bounded] = arraysIn(boundedArray(z.string(), 7))
    expect(bounded).toEqual({ path: '', max: 7, leading: true })
    expect(arraysIn(boundedArray(z.string(), 7).min(1))[0]).toEqual({ path: '', max: 7, leading: true })
    expect(arraysIn(z.array(z.string()).min(1).max(7))[0]).toEqual({ path: '', max: 7, leading: true })
    expect(arraysIn(z.array(z.string()))[0]).toEqual({ path: '', max: undefined, leading: false })
    // A refinement before the maximum makes zod parse every element first.
    expect(
      arraysIn(
        z
          .array(z.string())
          .refine(() => true)
          .max(7),
      )[0],
    ).toEqual({ path: '', max: 7, leading: false })
  })

  it('refuses a schema type it does not know', () => {
    expect(() => arraysIn(z.object({ x: z.function() as unknown as z.ZodType }))).toThrow(/does not know zod type/)
  })
})

describe('every request array has a maximum', () => {
  const found = REQUEST_SCHEMAS.flatMap(([name, schema]) => arraysIn(schema).map((b) => ({ ...b, name })))

  it('walks the arrays of the registry (sanity: the walk sees what we know is there)', () => {
    const names = found.map((b) => `${b.name} ${b.path}`)
    expect(names).toEqual(
      expect.arrayContaining([
        'create_users parameters users',
        'create_users parameters users[].authenticators',
        'create_users parameters users[].authenticators[].attestation.transports',
        'create_sub_organization parameters rootUsers[].apiKeys',
        'create_sub_organization parameters wallet.accounts',
        'sign_raw_payloads parameters payloads',
        'delete_users parameters userIds',
        'list_activities request filterByType',
      ]),
    )
  })

  it('no array of any submit parameters or query request lacks a maximum checked before its elements', () => {
    const unbounded = found.filter((b) => b.max === undefined || !b.leading).map((b) => `${b.name} ${b.path}`)
    expect(unbounded).toEqual([])
    for (const b of found) expect(b.max, `${b.name} ${b.path}`).toBeGreaterThan(0)
  })
})

// ---------------------------------------------------------------------------------------------
// What zod does with a bounded array
// ---------------------------------------------------------------------------------------------

describe('boundedArray', () => {
  it('refuses an oversized array with one issue at the array, before parsing any element', () => {
    const s = z.object({ xs: boundedArray(z.string(), 10) })
    const r = s.safeParse({ xs: Array(200_000).fill(0) })
    expect(r.success).toBe(false)
    expect(r.error?.issues).toHaveLength(1)
    expect(r.error?.issues[0]).toMatchObject({ code: 'too_big', path: ['xs'], message: 'must have at most 10 items' })
  })

  it('does not look at a single element of an oversized array', () => {
    let looked = 0
    const counted = z.custom<string>(() => {
      looked++
      return true
    })
    expect(boundedArray(counted, 10).safeParse(Array(11).fill('x')).success).toBe(false)
    expect(looked).toBe(0)
    expect(boundedArray(counted, 10).safeParse(Array(10).fill('x')).success).toBe(true)
    expect(looked).toBe(10)
  })

  it('still validates each element of an array within the maximum', () => {
    const r = boundedArray(z.string(), 3).safeParse([1, 'b', 3])
    expect(r.error?.issues.map((i) => i.path)).toEqual([[0], [2]])
  })

  it('keeps the element type (input and output) and a later minimum', () => {
    const s = boundedArray(z.object({ n: z.number().default(1) }), 3).min(1, { error: 'at least one' })
    expectTypeOf<z.input<typeof s>>().toEqualTypeOf<Array<{ n?: number | undefined }>>()
    expectTypeOf<z.output<typeof s>>().toEqualTypeOf<Array<{ n: number }>>()
    expect(s.parse([{}])).toEqual([{ n: 1 }])
    expect(s.safeParse([]).error?.issues[0]?.message).toBe('at least one')
  })
})

// ---------------------------------------------------------------------------------------------
// Per-operation cases: the maximum is accepted, one more is refused naming the field
// ---------------------------------------------------------------------------------------------

const user = (extra: object = {}) => ({ userName: 'u', apiKeys: [], authenticators: [], oauthProviders: [], userTags: [], ...extra })
const authenticator = { authenticatorName: 'Passkey', challenge: 'Y2hhbGxlbmdl', attestation }
const apiKey = { apiKeyName: 'k', publicKey: `02${'ab'.repeat(32)}`, curveType: 'API_KEY_CURVE_P256' }
const account = {
  curve: 'CURVE_SECP256K1',
  pathFormat: 'PATH_FORMAT_BIP32',
  path: "m/44'/60'/0'/0/0",
  addressFormat: 'ADDRESS_FORMAT_ETHEREUM',
}
const evmAddress = `0x${'11'.repeat(20)}`
const many = <T>(n: number, x: T | ((i: number) => T)): T[] =>
  Array.from({ length: n }, (_, i) => (typeof x === 'function' ? (x as (i: number) => T)(i) : x))

type Case = { name: string; schema: z.ZodType; prefix: string; field: string; max: number; body: (n: number) => unknown }

const CASES: Case[] = [
  {
    name: 'create_users users',
    schema: createUsers.parameters,
    prefix: 'parameters',
    field: 'parameters.users',
    max: MAX_USERS,
    body: (n) => ({ users: many(n, (i) => user({ userName: `u${i}` })) }),
  },
  {
    name: 'create_users users[0].authenticators',
    schema: createUsers.parameters,
    prefix: 'parameters',
    field: 'parameters.users[0].authenticators',
    max: MAX_AUTHENTICATORS_PER_USER,
    body: (n) => ({ users: [user({ authenticators: many(n, authenticator) })] }),
  },
  {
    name: 'create_sub_organization rootUsers[0].apiKeys',
    schema: createSubOrganization.parameters,
    prefix: 'parameters',
    field: 'parameters.rootUsers[0].apiKeys',
    max: MAX_API_KEYS_PER_USER,
    body: (n) => {
      const p = subOrgParams()
      ;(p.rootUsers as Array<Record<string, unknown>>)[0]!.apiKeys = many(n, apiKey)
      return p
    },
  },
  {
    name: 'create_sub_organization rootUsers[0].authenticators[0].attestation.transports',
    schema: createSubOrganization.parameters,
    prefix: 'parameters',
    field: 'parameters.rootUsers[0].authenticators[0].attestation.transports',
    max: MAX_AUTHENTICATOR_TRANSPORTS,
    body: (n) => {
      const p = subOrgParams()
      const transports = many(n, 'AUTHENTICATOR_TRANSPORT_USB')
      ;(p.rootUsers as Array<Record<string, unknown>>)[0]!.authenticators = [
        { ...authenticator, attestation: { ...attestation, transports } },
      ]
      return p
    },
  },
  {
    name: 'sign_raw_payloads payloads',
    schema: signRawPayloads.parameters,
    prefix: 'parameters',
    field: 'parameters.payloads',
    max: MAX_RAW_PAYLOADS,
    body: (n) => ({
      signWith: evmAddress,
      payloads: many(n, 'ab'),
      encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
      hashFunction: 'HASH_FUNCTION_NOT_APPLICABLE',
    }),
  },
  {
    name: 'delete_users userIds',
    schema: deleteUsers.parameters,
    prefix: 'parameters',
    field: 'parameters.userIds',
    max: MAX_USERS,
    body: (n) => ({ userIds: many(n, (i) => `user-${i}`) }),
  },
  {
    name: 'delete_api_keys apiKeyIds',
    schema: deleteApiKeys.parameters,
    prefix: 'parameters',
    field: 'parameters.apiKeyIds',
    max: MAX_API_KEYS_PER_USER,
    body: (n) => ({ userId: 'u', apiKeyIds: many(n, (i) => `key-${i}`) }),
  },
  {
    name: 'delete_wallets walletIds',
    schema: deleteWallets.parameters,
    prefix: 'parameters',
    field: 'parameters.walletIds',
    max: MAX_WALLETS,
    body: (n) => ({ walletIds: many(n, (i) => `wallet-${i}`) }),
  },
  {
    name: 'create_wallet_accounts accounts',
    schema: createWalletAccounts.parameters,
    prefix: 'parameters',
    field: 'parameters.accounts',
    max: MAX_WALLET_ACCOUNTS,
    body: (n) => ({ walletId: 'w', accounts: many(n, account) }),
  },
  {
    name: 'eth_send_transaction calls',
    schema: ethSendTransaction.parameters,
    prefix: 'parameters',
    field: 'parameters.calls',
    max: MAX_ETH_CALLS,
    body: (n) => ({ from: evmAddress, caip2: 'eip155:1', calls: many(n, { to: evmAddress }) }),
  },
  {
    name: 'sol_send_transaction signWiths',
    schema: solSendTransaction.parameters,
    prefix: 'parameters',
    field: 'parameters.signWiths',
    max: MAX_SOL_SIGNERS,
    body: (n) => ({ unsignedTransaction: '00'.repeat(100), caip2: 'solana:x', signWiths: many(n, (i) => `signer${i}`) }),
  },
  {
    name: 'list_activities filterByStatus (a query)',
    schema: listActivities.request,
    prefix: '',
    field: 'filterByStatus',
    max: MAX_STATUS_FILTER,
    body: (n) => ({ organizationId: ORG, filterByStatus: many(n, (i) => ACTIVITY_STATUSES[i % ACTIVITY_STATUSES.length]) }),
  },
]

describe('per-operation maxima', () => {
  for (const c of CASES) {
    it(`${c.name}: ${c.max} is accepted, ${c.max + 1} is refused naming the field and the maximum`, () => {
      expect(() => parseOrThrow(c.schema, c.body(c.max), c.prefix)).not.toThrow()
      const err = failure(c.schema, c.body(c.max + 1), c.prefix)
      expect(err.code).toBe('INVALID_ARGUMENT')
      expect(err.httpStatus).toBe(400)
      expect(err.message).toBe(`${c.field}: must have at most ${c.max} items`)
      expect(err.fieldViolations).toEqual([{ field: c.field, description: `must have at most ${c.max} items` }])
    })
  }

  it('a minimum still applies below the maximum', () => {
    expect(failure(ethSendTransaction.parameters, CASES[9]!.body(0), 'parameters').message).toBe('parameters.calls: at least one call')
  })
})

describe('200,000 elements of the wrong type', () => {
  const HUGE = 200_000
  const huge: Array<[string, z.ZodType, string, unknown, number]> = [
    [
      'create_users authenticators',
      createUsers.parameters,
      'parameters.users[0].authenticators',
      { users: [user({ authenticators: Array(HUGE).fill('x') })] },
      MAX_AUTHENTICATORS_PER_USER,
    ],
    ['create_users users', createUsers.parameters, 'parameters.users', { users: Array(HUGE).fill(0) }, MAX_USERS],
    [
      'sign_raw_payloads payloads',
      signRawPayloads.parameters,
      'parameters.payloads',
      { ...(CASES[4]!.body(0) as object), payloads: Array(HUGE).fill(0) },
      MAX_RAW_PAYLOADS,
    ],
    ['delete_users userIds', deleteUsers.parameters, 'parameters.userIds', { userIds: Array(HUGE).fill({}) }, MAX_USERS],
  ]
  for (const [name, schema, field, params, max] of huge) {
    it(`${name}: refused naming the array's maximum, not element 0's type`, () => {
      const err = failure(schema, params, 'parameters')
      expect(err.message).toBe(`${field}: must have at most ${max} items`)
      // Had the elements been parsed, each would have its own violation (and zod would have
      // skipped the length check after them): one violation means none was looked at.
      expect(err.fieldViolations).toEqual([{ field, description: `must have at most ${max} items` }])
    })
  }
})
