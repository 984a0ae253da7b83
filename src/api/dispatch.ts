/**
 * Request dispatch helpers for the service: path + `type` → definition, then
 * envelope and parameter validation (wire-formats A2, A3; service-interface.md
 * "Common submit envelope"). Parsed parameters strip unknown keys; the service should
 * echo `rawParameters` (the validated, unmodified JSON object) as the recorded intent.
 */
import { SubmitEnvelope } from './common.js'
import { ActivityType } from './enums.js'
import { SigilError, fieldError, invalidField } from './errors.js'
import type { QueryDefinition, SubmitDefinition } from './operation.js'
import { queryByPath, submitByPath } from './registry.js'
import { parseOrThrow } from './validation.js'

function badType(description: string): SigilError {
  return fieldError('UNKNOWN_ACTIVITY_TYPE', 'type', description)
}

/**
 * The definition for `type` on `path`. Throws NOT_FOUND for an unknown submit path and
 * UNKNOWN_ACTIVITY_TYPE (400, naming `type`) when `type` is unknown or belongs to another path.
 */
export function resolveSubmit(path: string, type: unknown): SubmitDefinition {
  const defs = submitByPath.get(path)
  if (!defs) throw new SigilError('NOT_FOUND', `path: no submit operation at ${path}`)
  if (typeof type !== 'string' || !ActivityType.safeParse(type).success) throw badType('unknown activity type')
  const def = defs.find((d) => d.type === type)
  if (!def) {
    const allowed = defs.map((d) => d.type).join(', ')
    throw badType(`${type} is not accepted on ${path} (expected ${allowed})`)
  }
  return def
}

/** A validated submit request. */
export type ParsedSubmit = {
  definition: SubmitDefinition
  envelope: SubmitEnvelope
  /** Parameters as parsed by the definition's schema (unknown keys stripped). */
  parameters: unknown
  /** The request's own `parameters` object, unmodified: echo this in the activity intent. */
  rawParameters: Record<string, unknown>
}

/** Validates a parsed JSON submit body for `path`: type first (A2), then envelope, then parameters. */
export function parseSubmitRequest(path: string, body: unknown): ParsedSubmit {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidField('(body)', 'must be a JSON object')
  }
  const definition = resolveSubmit(path, (body as { type?: unknown }).type)
  const envelope = parseOrThrow(SubmitEnvelope, body, '')
  const parameters: unknown = parseOrThrow(definition.parameters, envelope.parameters, 'parameters')
  return { definition, envelope, parameters, rawParameters: envelope.parameters }
}

/** A validated query request. */
export type ParsedQuery = { definition: QueryDefinition; request: unknown }

/** Validates a parsed JSON query body for `path` (NOT_FOUND for an unknown path). */
export function parseQueryRequest(path: string, body: unknown): ParsedQuery {
  const definition = queryByPath.get(path)
  if (!definition) throw new SigilError('NOT_FOUND', `path: no query operation at ${path}`)
  return { definition, request: parseOrThrow(definition.request, body, '') }
}
