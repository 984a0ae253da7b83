import { z } from 'zod'
import { SigilError, invalidField } from '../../api/errors.js'
import type { QueryDefinition, SubmitDefinition } from '../../api/operation.js'
import { QUERY_OPERATIONS, SUBMIT_OPERATIONS } from '../../api/registry.js'
import { fieldPath, parseOrThrow } from '../../api/validation.js'
import { utf8Decode } from '../../crypto/encoding.js'
import type { ActivityHandler } from '../activities/types.js'
import { activityDetail, type Engine } from '../activities/engine.js'
import { authenticate, stampSignatureCheck } from '../auth/authenticate.js'
import type { Principal } from '../auth/principal.js'
import type { Runtime } from '../runtime.js'
import { getActivity, submitResponse } from '../store/activities.js'
import type { Sql } from '../store/sql.js'

/** What a query handler sees. */
export type QueryContext = { sql: Sql; rt: Runtime; principal: Principal; organizationId: string }
export type QueryHandler<Q = never> = (ctx: QueryContext, request: Q) => Promise<unknown>

export type Dispatcher = {
  engine: Engine
  activities: ReadonlyMap<string, ActivityHandler>
  queries: ReadonlyMap<string, QueryHandler>
}

const RECOVERY_CREDENTIAL_TYPE = 'CREDENTIAL_TYPE_RECOVER_USER_KEY_P256'

/** Operations whose credential may be found among the sub-organizations of the named one. */
const DESCENDANT_LOOKUP = new Set(['whoami', 'stamp_login', 'create_read_write_session'])

const Envelope = z.object({
  type: z.string({ error: 'required' }),
  timestampMs: z.string({ error: 'required' }).regex(/^\d{1,16}$/, { error: 'must be milliseconds as a string of digits' }),
  organizationId: z.string({ error: 'required' }).min(1, { error: 'required' }),
  parameters: z.record(z.string(), z.unknown(), { error: 'required: an object' }),
  generateAppProofs: z.boolean().optional(),
})

const QueryEnvelope = z.object({
  organizationId: z.string({ error: 'required' }).min(1, { error: 'required' }),
})

const submitsByPath = new Map<string, SubmitDefinition[]>()
for (const d of SUBMIT_OPERATIONS as readonly SubmitDefinition[]) {
  submitsByPath.set(d.path, [...(submitsByPath.get(d.path) ?? []), d])
}
const queriesByPath = new Map<string, QueryDefinition>()
for (const d of QUERY_OPERATIONS as readonly QueryDefinition[]) for (const p of [d.path, ...(d.aliases ?? [])]) queriesByPath.set(p, d)

/** A JSON `\u0000` escape (not itself escaped): text the database cannot store. */
const NUL_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\u0000/

/** A UTF-16 surrogate not part of a pair (`\ud800` in JSON text): valid JSON, but not text the database can store. */
const LONE_SURROGATE = /[\ud800-\udfff]/u

type Node = { value: unknown; seg: PropertyKey | undefined; parent: Node | undefined }

function pathOf(node: Node): PropertyKey[] {
  const path: PropertyKey[] = []
  for (let n: Node | undefined = node; n?.seg !== undefined; n = n.parent) path.unshift(n.seg)
  return path
}

/**
 * Visits every object key and string of a parsed body with its field path, without recursion
 * (a body may nest arrays hundreds of thousands deep). Stops when `visit` returns true.
 */
function visitStrings(json: unknown, visit: (s: string, node: Node) => boolean): void {
  const stack: Node[] = [{ value: json, seg: undefined, parent: undefined }]
  while (stack.length > 0) {
    const node = stack.pop()!
    const v = node.value
    if (typeof v === 'string') {
      if (visit(v, node)) return
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], seg: i, parent: node })
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const child: Node = { value: x, seg: k, parent: node }
        if (visit(k, child)) return
        stack.push(child)
      }
    }
  }
}

function parseJson(raw: Uint8Array): unknown {
  let text: string
  let json: unknown
  try {
    text = utf8Decode(raw)
    json = JSON.parse(text)
  } catch {
    throw new SigilError('INVALID_JSON', 'request body is not valid JSON')
  }
  if (NUL_ESCAPE.test(text)) throw new SigilError('INVALID_JSON', 'request body must not contain NUL characters (\\u0000)')
  let surrogate: PropertyKey[] | undefined
  visitStrings(json, (s, node) => {
    if (LONE_SURROGATE.test(s)) surrogate = pathOf(node)
    return surrogate !== undefined
  })
  if (surrogate) throw invalidField(fieldPath('', surrogate), 'must be well-formed Unicode (a lone UTF-16 surrogate)')
  return json
}

/** SQLSTATE class 54, "program limit exceeded": e.g. a value too large for an index entry. */
function isDatabaseLimit(e: unknown): boolean {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined
  return typeof code === 'string' && /^54[0-9A-Z]{3}$/.test(code)
}

/**
 * Runs the part of a request that touches the database: a value the database cannot hold
 * (too large for an index entry) is a 400 naming the request's longest string, the value that
 * overflowed, not a 500. The failed statement rolled its transaction back, so nothing stays.
 */
async function storing<T>(json: unknown, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (e) {
    if (!isDatabaseLimit(e)) throw e
    let longest: { length: number; node: Node } | undefined
    visitStrings(json, (s, node) => {
      if (!longest || s.length > longest.length) longest = { length: s.length, node }
      return false
    })
    const field = longest ? fieldPath('', pathOf(longest.node)) : '(body)'
    throw new SigilError('INVALID_ARGUMENT', `${field}: value is too large to store`, {
      fieldViolations: [{ field, description: 'value is too large to store' }],
      cause: e,
    })
  }
}

/** POST /public/v1/submit/<operation> (A1, A2, A4). */
export async function handleSubmit(rt: Runtime, d: Dispatcher, path: string, headers: Headers, raw: Uint8Array) {
  const definitions = submitsByPath.get(path)
  if (!definitions) throw new SigilError('NOT_FOUND', `no such operation: ${path}`)
  const signed = await stampSignatureCheck(headers, raw) // over the raw bytes, before any parsing (A4)
  const json = parseJson(raw)
  const body = parseOrThrow(Envelope, json, '')
  const name = definitions[0]!.name
  const now = rt.now()
  const { principal, effectiveOrganizationId } = await authenticate(rt.db, rt.config, {
    signed,
    rawBody: raw,
    organizationId: body.organizationId,
    allowDescendant: DESCENDANT_LOOKUP.has(name),
    now,
    verifierPublicKeyHex: name === 'stamp_login' ? rt.keys.verifier.publicKeyHex : undefined,
  })
  if (Math.abs(Number(body.timestampMs) - now) > rt.config.timestampWindowMs) {
    throw new SigilError('TIMESTAMP_OUT_OF_WINDOW', 'timestampMs: request timestamp is outside the allowed window', {
      fieldViolations: [{ field: 'timestampMs', description: 'outside the allowed window of the service clock' }],
    })
  }
  const definition = definitions.find((x) => x.type === body.type)
  if (!definition) {
    throw new SigilError('UNKNOWN_ACTIVITY_TYPE', `type: ${body.type} is not accepted by ${path}`, {
      fieldViolations: [{ field: 'type', description: `expected one of ${definitions.map((x) => x.type).join(', ')}` }],
    })
  }
  // A recovery credential (init_user_email_recovery) exists to register a new passkey, nothing else.
  if (principal.credentialType === RECOVERY_CREDENTIAL_TYPE && definition.type !== 'ACTIVITY_TYPE_RECOVER_USER') {
    throw new SigilError(
      'PERMISSION_DENIED',
      `type: a recovery credential can submit only ACTIVITY_TYPE_RECOVER_USER, not ${definition.type}`,
    )
  }
  const handler = d.activities.get(definition.type)
  if (!handler) {
    throw new SigilError('UNKNOWN_ACTIVITY_TYPE', `type: ${body.type} is not implemented by this service`, {
      fieldViolations: [{ field: 'type', description: 'not implemented' }],
    })
  }
  const parameters = parseOrThrow(definition.parameters, body.parameters, 'parameters') as Record<string, unknown>
  const { activity: row, known } = await storing(json, () =>
    d.engine.submit({
      principal,
      organizationId: effectiveOrganizationId,
      type: definition.type,
      timestampMs: body.timestampMs,
      generateAppProofs: body.generateAppProofs ?? false,
      rawBody: raw,
      parameters,
      operation: definition,
      handler,
    }),
  )
  if (definition.resultOf === 'target' && row.result && typeof row.result.activityId === 'string') {
    const target = await getActivity(rt.db, row.result.activityId)
    if (target) return submitResponse(rt.db, target, principal.userId)
  }
  return submitResponse(rt.db, row, principal.userId, known)
}

/** POST /public/v1/query/<operation>. */
export async function handleQuery(rt: Runtime, d: Dispatcher, path: string, headers: Headers, raw: Uint8Array) {
  const definition = queriesByPath.get(path)
  const handler = definition && d.queries.get(definition.name)
  if (!definition || !handler) throw new SigilError('NOT_FOUND', `no such query: ${path}`)
  const signed = await stampSignatureCheck(headers, raw)
  const json = parseJson(raw)
  const { organizationId } = parseOrThrow(QueryEnvelope, json, '')
  const { principal, effectiveOrganizationId } = await authenticate(rt.db, rt.config, {
    signed,
    rawBody: raw,
    organizationId,
    allowDescendant: DESCENDANT_LOOKUP.has(definition.name),
    now: rt.now(),
  })
  const request = parseOrThrow(definition.request, json, '') as Record<string, unknown>
  // The table erases each handler's request type; the registry's schema has just parsed it.
  const typed = handler as QueryHandler<Record<string, unknown>>
  return storing(json, () => typed({ sql: rt.db, rt, principal, organizationId: effectiveOrganizationId }, request))
}

export { activityDetail }
