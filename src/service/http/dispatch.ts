/**
 * The one request pipeline of the interface. Every submit and query goes through it:
 *
 *   body limit, content type (app.ts) → I-JSON parse (json.ts) → envelope → operation lookup in
 *   the registry → type/version check → stamp → parameters schema → handler → result schema.
 *
 * Handlers come from tables typed from the registry (activities/index.ts, queries/index.ts), so a
 * declared operation always has one; the engine checks each activity's result against its schema.
 */
import { z } from 'zod'
import { SigilError, fieldError, invalidField } from '../../api/errors.js'
import { ActivityType } from '../../api/enums.js'
import type { QueryDefinition, SubmitDefinition } from '../../api/operation.js'
import { QUERY_OPERATIONS, SUBMIT_OPERATIONS } from '../../api/registry.js'
import { fieldPath, parseOrThrow, toFieldViolations } from '../../api/validation.js'
import { activityDetail, type Engine } from '../activities/engine.js'
import { CheckedSmartContractInterfaceParams } from '../activities/create_smart_contract_interface.js'
import { authenticate, stampSignatureCheck } from '../auth/authenticate.js'
import { requireCustody } from '../auth/custody.js'
import { callQuery, type QueryHandlerTable, type QueryName } from '../queries/types.js'
import type { Runtime } from '../runtime.js'
import { getActivity, submitResponse } from '../store/activities.js'
import type { ClientAddress } from './clientAddress.js'
import { refuseLockout, requireAllowedAddress } from './ipAllowlist.js'
import { parseRequestJson } from './json.js'

export type Dispatcher = {
  engine: Engine
  queries: QueryHandlerTable
}

const RECOVERY_CREDENTIAL_TYPE = 'CREDENTIAL_TYPE_RECOVER_USER_KEY_P256'

/** Operations whose credential may be found among the sub-organizations of the named one. */
const DESCENDANT_LOOKUP = new Set([
  'whoami',
  'stamp_login',
  'create_read_write_session',
  'create_read_write_session_v1',
  'create_read_only_session',
])

/** The submit envelope (service-interface.md "Common submit envelope"). */
const Envelope = z.object({
  type: z.string({ error: 'required' }),
  timestampMs: z.string({ error: 'required' }).regex(/^\d{1,16}$/, { error: 'must be milliseconds as a string of digits' }),
  organizationId: z.string({ error: 'required' }).min(1, { error: 'required' }),
  parameters: z.record(z.string(), z.unknown(), { error: 'required: an object' }),
  generateAppProofs: z.boolean().optional(),
})

/** What every query body carries. */
const QueryEnvelope = z.object({
  organizationId: z.string({ error: 'required' }).min(1, { error: 'required' }),
})

const submitsByPath = new Map<string, SubmitDefinition[]>()
for (const d of SUBMIT_OPERATIONS as readonly SubmitDefinition[]) {
  submitsByPath.set(d.path, [...(submitsByPath.get(d.path) ?? []), d])
}
const queriesByPath = new Map<string, QueryDefinition>()
for (const d of QUERY_OPERATIONS as readonly QueryDefinition[]) for (const p of [d.path, ...(d.aliases ?? [])]) queriesByPath.set(p, d)

type Node = { value: unknown; seg: PropertyKey | undefined; parent: Node | undefined }

function pathOf(node: Node): PropertyKey[] {
  const path: PropertyKey[] = []
  for (let n: Node | undefined = node; n?.seg !== undefined; n = n.parent) path.unshift(n.seg)
  return path
}

/** Visits every string of a parsed body with its field path, without recursion (a body may nest deeply). */
function visitStrings(json: unknown, visit: (s: string, node: Node) => void): void {
  const stack: Node[] = [{ value: json, seg: undefined, parent: undefined }]
  while (stack.length > 0) {
    const node = stack.pop()!
    const v = node.value
    if (typeof v === 'string') {
      visit(v, node)
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], seg: i, parent: node })
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) stack.push({ value: x, seg: k, parent: node })
    }
  }
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
    })
    const field = longest ? fieldPath('', pathOf(longest.node)) : '(body)'
    throw fieldError('INVALID_ARGUMENT', field, 'value is too large to store', { cause: e })
  }
}

/** A submit body read up to its parameters: the operation, the envelope and the parsed JSON. */
export type SubmitRequest = { definition: SubmitDefinition; envelope: z.output<typeof Envelope>; json: unknown }

/**
 * The request steps of a submit that need no database: operation lookup by path, I-JSON parse,
 * `type` (first, A2: it selects the operation's version), then the envelope.
 */
export function readSubmit(path: string, raw: Uint8Array): SubmitRequest {
  const definitions = submitsByPath.get(path)
  if (!definitions) throw new SigilError('NOT_FOUND', `no such operation: ${path}`)
  const json = parseRequestJson(raw)
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw invalidField('(body)', 'must be a JSON object')
  const type: unknown = (json as { type?: unknown }).type
  if (typeof type !== 'string' || !ActivityType.safeParse(type).success) {
    throw fieldError('UNKNOWN_ACTIVITY_TYPE', 'type', type === undefined ? 'required' : 'unknown activity type')
  }
  const definition = definitions.find((x) => x.type === type)
  if (!definition) {
    throw fieldError(
      'UNKNOWN_ACTIVITY_TYPE',
      'type',
      `${type} is not accepted on ${path} (expected ${definitions.map((x) => x.type).join(', ')})`,
    )
  }
  return { definition, envelope: parseOrThrow(Envelope, json, ''), json }
}

/**
 * Parameters the service checks beyond their wire schema, with code the wire vocabulary (src/api)
 * does not import: an ABI or IDL and its address, by the chains' parsers. Same step, same refusal.
 */
const SERVICE_PARAMETERS: Partial<Record<string, z.ZodType>> = {
  ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE: CheckedSmartContractInterfaceParams,
}

/** The operation's parameters, parsed by its schema (unknown keys stripped) and the service's checks of them. */
export function readParameters(definition: SubmitDefinition, envelope: SubmitRequest['envelope']): Record<string, unknown> {
  const schema = SERVICE_PARAMETERS[definition.type] ?? definition.parameters
  return parseOrThrow(schema, envelope.parameters, 'parameters') as Record<string, unknown>
}

/** A query body read: the definition, the organization it names and the parsed JSON. */
export type QueryRequest = { definition: QueryDefinition; organizationId: string; json: unknown }

/** The request steps of a query that need no database: lookup by path, I-JSON parse, envelope. */
export function readQuery(path: string, raw: Uint8Array): QueryRequest {
  const definition = queriesByPath.get(path)
  if (!definition) throw new SigilError('NOT_FOUND', `no such query: ${path}`)
  const json = parseRequestJson(raw)
  const { organizationId } = parseOrThrow(QueryEnvelope, json, '')
  return { definition, organizationId, json }
}

/** The query's request, parsed by its schema. */
export function readQueryRequest(definition: QueryDefinition, json: unknown): Record<string, unknown> {
  return parseOrThrow(definition.request, json, '') as Record<string, unknown>
}

/** POST /public/v1/submit/<operation> (A1, A2, A4); `client`: where it comes from (clientAddress.ts). */
export async function handleSubmit(rt: Runtime, d: Dispatcher, path: string, headers: Headers, raw: Uint8Array, client: ClientAddress) {
  const { definition, envelope: body, json } = readSubmit(path, raw)
  const signed = await stampSignatureCheck(headers, raw) // over the raw bytes (A4)
  const now = rt.now()
  const { principal, effectiveOrganizationId } = await authenticate(rt.db, rt.config, {
    signed,
    rawBody: raw,
    organizationId: body.organizationId,
    allowDescendant: DESCENDANT_LOOKUP.has(definition.name),
    now,
    verifierPublicKeyHex: definition.name === 'stamp_login' ? rt.keys.verifier.publicKeyHex : undefined,
    oidc: definition.name === 'stamp_login' ? rt.oidc : undefined,
  })
  // The IP allow-list of the credential's organization, before anything else is told (ipAllowlist.ts).
  await requireAllowedAddress(rt.db, principal, client)
  if (Math.abs(Number(body.timestampMs) - now) > rt.config.timestampWindowMs) {
    throw fieldError('TIMESTAMP_OUT_OF_WINDOW', 'timestampMs', 'request timestamp is outside the allowed window of the service clock')
  }
  // Custody: a parent's credential reads its sub-organizations and starts their auth flows, nothing else.
  requireCustody(definition, principal, effectiveOrganizationId)
  // A recovery credential (init_user_email_recovery) exists to register a new passkey, nothing else.
  if (principal.credentialType === RECOVERY_CREDENTIAL_TYPE && definition.type !== 'ACTIVITY_TYPE_RECOVER_USER') {
    throw fieldError(
      'PERMISSION_DENIED',
      'type',
      `a recovery credential can submit only ACTIVITY_TYPE_RECOVER_USER, not ${definition.type}`,
    )
  }
  const parameters = readParameters(definition, body)
  await refuseLockout(rt.db, principal, effectiveOrganizationId, definition.type, parameters, client)
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
    }),
  )
  if (definition.resultOf === 'target' && row.result && typeof row.result.activityId === 'string') {
    const target = await getActivity(rt.db, row.result.activityId)
    if (target) return submitResponse(rt.db, target, principal.userId)
  }
  return submitResponse(rt.db, row, principal.userId, known)
}

/** POST /public/v1/query/<operation>; `client`: where it comes from (clientAddress.ts). */
export async function handleQuery(rt: Runtime, d: Dispatcher, path: string, headers: Headers, raw: Uint8Array, client: ClientAddress) {
  const { definition, organizationId, json } = readQuery(path, raw)
  const signed = await stampSignatureCheck(headers, raw)
  const { principal, effectiveOrganizationId } = await authenticate(rt.db, rt.config, {
    signed,
    rawBody: raw,
    organizationId,
    allowDescendant: DESCENDANT_LOOKUP.has(definition.name),
    now: rt.now(),
    // Queries alone accept a read-only session (X-Session); authenticate refuses it on every submit.
    sessionPublicKeyHex: rt.keys.session.publicKeyHex,
  })
  await requireAllowedAddress(rt.db, principal, client)
  const request = readQueryRequest(definition, json)
  const handler = d.queries[definition.name as QueryName]
  const out = await storing(json, () => callQuery(handler, { sql: rt.db, rt, principal, organizationId: effectiveOrganizationId }, request))
  const checked = definition.response.safeParse(out)
  if (!checked.success) {
    // A bug of this service, not of the request: logged with the fields, answered as INTERNAL.
    const violations = toFieldViolations(checked.error.issues, '')
    rt.log.error('query response does not match its schema', { query: definition.name, violations: JSON.stringify(violations.slice(0, 5)) })
    throw new SigilError('INTERNAL', 'internal error', { cause: checked.error })
  }
  return out
}

export { activityDetail }
