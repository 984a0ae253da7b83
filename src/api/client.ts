/**
 * Typed client: one method per operation, generated from the registry so input and
 * output types follow the schemas (wire-formats B1.5, B4, B5, A1, A3).
 *
 * Submit bodies are `JSON.stringify({parameters, organizationId, timestampMs, type})`
 * (sdk-server key order; `generateAppProofs` before `type` only when given) and the
 * stamper signs exactly that string. Non-2xx → {@link SigilRequestError}.
 */
import { z } from 'zod'
import { FailureDetail, SubmitResponse, type Activity } from './common.js'
import { SigilError, SigilRequestError, type WireError } from './errors.js'
import type { QueryDefinition, SubmitDefinition } from './operation.js'
import { QUERY_OPERATIONS, SUBMIT_OPERATIONS, type AnyQueryOperation, type AnySubmitOperation } from './registry.js'
import type { Stamp, Stamper } from './stamper.js'
import { fieldPath } from './validation.js'

/** Default `X-Client-Version` header value (wire-formats B1.5). */
export const DEFAULT_CLIENT_VERSION = '@sigil/api@0.1.0'

/** `snake_case` → `camelCase` at the type level (`verify_otp_v1` → `verifyOtpV1`). */
export type CamelCase<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S

/** `snake_case` → `camelCase` at run time, matching {@link CamelCase}. */
export function camelCase<S extends string>(s: S): CamelCase<S> {
  return s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()) as CamelCase<S>
}

/** Envelope fields a caller gives next to the parameters. */
export type SubmitEnvelopeInput = { organizationId: string; timestampMs?: string; generateAppProofs?: boolean }
/** Input of a submit method: envelope fields plus the operation's parameters. */
export type SubmitInput<D extends SubmitDefinition> = SubmitEnvelopeInput & z.input<D['parameters']>
/**
 * Output of a submit method: the parsed `result[resultKey]` spread, plus the activity.
 * The result fields are present only when `activity.status` is COMPLETED (e.g. not on
 * CONSENSUS_NEEDED); approve/reject return only the voted-on activity.
 */
export type SubmitOutput<D extends SubmitDefinition> = z.output<D['result']> & { activity: Activity }
/** Input of a query method. */
export type QueryInput<D extends QueryDefinition> = z.input<D['request']>
/** Output of a query method: the parsed response. */
export type QueryOutput<D extends QueryDefinition> = z.output<D['response']>

/** A stamped request that has not been sent (like TurnkeyClient `stampX`). */
export type SignedRequest = { url: string; body: string; stamp: Stamp }

/** One method per operation, named after it in camelCase. */
export type SigilApiMethods = {
  [D in AnySubmitOperation as CamelCase<D['name']>]: (input: SubmitInput<D>) => Promise<SubmitOutput<D>>
} & {
  [D in AnyQueryOperation as CamelCase<D['name']>]: (input: QueryInput<D>) => Promise<QueryOutput<D>>
}

/** Lower-level entry points shared by all methods. */
export interface SigilClientCore {
  /** Stamps and sends a submit, returns `{...result, activity}`. */
  submit<D extends SubmitDefinition>(definition: D, input: SubmitInput<D>): Promise<SubmitOutput<D>>
  /** Stamps and sends a query, returns the parsed response. */
  query<D extends QueryDefinition>(definition: D, input: QueryInput<D>): Promise<QueryOutput<D>>
  /** Builds and stamps the request without sending it. */
  stampRequest<D extends SubmitDefinition>(definition: D, input: SubmitInput<D>): Promise<SignedRequest>
  stampRequest<D extends QueryDefinition>(definition: D, input: QueryInput<D>): Promise<SignedRequest>
  /** Sends a request stamped elsewhere (e.g. by a passkey) and parses it per `definition`. */
  sendSigned<D extends SubmitDefinition>(definition: D, signed: SignedRequest): Promise<SubmitOutput<D>>
  sendSigned<D extends QueryDefinition>(definition: D, signed: SignedRequest): Promise<QueryOutput<D>>
}

/** The typed client. */
export type SigilClient = SigilApiMethods & SigilClientCore

/** Options of {@link createClient}; `fetch` and `now` are injectable for tests (style.md habit 8). */
export type ClientOptions = {
  baseUrl: string
  stamper: Stamper
  fetch?: typeof globalThis.fetch
  now?: () => number
  clientVersion?: string
}

/** Submit body string in sdk-server key order (wire-formats B4). */
export function buildSubmitBody(definition: SubmitDefinition, input: SubmitEnvelopeInput, now: () => number = Date.now): string {
  const { organizationId, timestampMs, generateAppProofs, ...parameters } = input
  const ts = timestampMs ?? String(now())
  const body =
    generateAppProofs === undefined
      ? { parameters, organizationId, timestampMs: ts, type: definition.type }
      : { parameters, organizationId, timestampMs: ts, generateAppProofs, type: definition.type }
  return JSON.stringify(body)
}

/** Query body string: the request as given (wire-formats B4). */
export function buildQueryBody(_definition: QueryDefinition, input: unknown): string {
  return JSON.stringify(input)
}

/** What {@link stampRequest} needs: where, who stamps, and the clock. */
export type StampOptions = Pick<ClientOptions, 'baseUrl' | 'stamper' | 'now'>

/**
 * Builds and stamps a request without sending it, like TurnkeyClient `stampX`
 * (wire-formats B4); the extension uses it for passkey-stamped requests.
 */
export async function stampRequest(
  options: StampOptions,
  definition: SubmitDefinition | QueryDefinition,
  input: unknown,
): Promise<SignedRequest> {
  const body =
    definition.kind === 'submit'
      ? buildSubmitBody(definition, input as SubmitEnvelopeInput, options.now)
      : buildQueryBody(definition, input)
  const stamp = await options.stamper.stamp(body)
  return { url: options.baseUrl.replace(/\/+$/, '') + definition.path, body, stamp }
}

const WireErrorBody = z.object({
  code: z.number(),
  message: z.string(),
  details: z.array(FailureDetail).optional(),
})

function badResponse(name: string, where: string, problem: string, cause?: unknown): SigilError {
  return new SigilError('BAD_RESPONSE', `${name}: unexpected response at ${where}: ${problem}`, { cause })
}

function parseOrBad<S extends z.ZodType>(schema: S, value: unknown, name: string, prefix: string): z.output<S> {
  const res = schema.safeParse(value)
  if (res.success) return res.data
  const issue = res.error.issues[0]
  throw badResponse(name, fieldPath(prefix, issue?.path ?? []), issue?.message ?? 'invalid', res.error)
}

/** Creates the typed client. @example createClient({ baseUrl, stamper }).whoami({ organizationId }) */
export function createClient(options: ClientOptions): SigilClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const now = options.now ?? Date.now
  const clientVersion = options.clientVersion ?? DEFAULT_CLIENT_VERSION

  const stampOptions: StampOptions = { baseUrl, stamper: options.stamper, now }
  const stampOne = (definition: SubmitDefinition | QueryDefinition, input: unknown) => stampRequest(stampOptions, definition, input)

  async function post(name: string, signed: SignedRequest): Promise<unknown> {
    let res: Response
    try {
      res = await doFetch(signed.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'X-Client-Version': clientVersion,
          [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue,
        },
        body: signed.body,
        redirect: 'error',
      })
    } catch (cause) {
      throw new SigilError('NETWORK', `${name}: request failed`, { cause })
    }
    if (!res.ok) {
      const fallback: WireError = { code: 13, message: `${res.status} ${res.statusText}`, details: [] }
      let json: unknown
      try {
        json = await res.json()
      } catch {
        throw new SigilRequestError(res.status, fallback)
      }
      const wire = WireErrorBody.safeParse(json)
      if (!wire.success) throw new SigilRequestError(res.status, fallback)
      throw new SigilRequestError(res.status, { ...wire.data, details: wire.data.details ?? [] })
    }
    try {
      return await res.json()
    } catch (cause) {
      throw badResponse(name, '(body)', 'not JSON', cause)
    }
  }

  async function sendSigned(definition: SubmitDefinition | QueryDefinition, signed: SignedRequest): Promise<unknown> {
    const json = await post(definition.name, signed)
    if (definition.kind === 'query') return parseOrBad(definition.response, json, definition.name, '')
    const { activity } = parseOrBad(SubmitResponse, json, definition.name, '')
    if (definition.resultOf === 'target') return { activity }
    const entry = activity.result[definition.resultKey]
    if (entry === undefined) {
      if (activity.status === 'ACTIVITY_STATUS_COMPLETED') {
        throw badResponse(definition.name, `activity.result.${definition.resultKey}`, 'missing')
      }
      return { activity }
    }
    const result = parseOrBad(definition.result, entry, definition.name, `activity.result.${definition.resultKey}`)
    return { ...(result as object), activity }
  }

  async function send(definition: SubmitDefinition | QueryDefinition, input: unknown): Promise<unknown> {
    return sendSigned(definition, await stampOne(definition, input))
  }

  const core = { submit: send, query: send, stampRequest: stampOne, sendSigned }
  const methods: Record<string, (input: unknown) => Promise<unknown>> = {}
  for (const d of SUBMIT_OPERATIONS) methods[camelCase(d.name)] = (input) => send(d, input)
  for (const d of QUERY_OPERATIONS) methods[camelCase(d.name)] = (input) => send(d, input)
  return { ...methods, ...core } as unknown as SigilClient
}
