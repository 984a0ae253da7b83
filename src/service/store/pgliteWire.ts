/**
 * The messages between the service's main thread and the worker thread that runs PGlite
 * ({@link openPgliteInWorker} and `pgliteWorker.ts`), and how errors cross: structured clone keeps
 * an error's message but not its class nor PostgreSQL's fields, so they travel as plain data and
 * are rebuilt with the fields the service reads (`code`, and the class of
 * {@link DatabaseUnavailableError}).
 */
import { DatabaseUnavailableError, type UnavailableReason } from './sql.js'

export type PgliteRequest =
  | { id: number; op: 'query'; text: string; params: unknown[] }
  | { id: number; op: 'begin' }
  | { id: number; op: 'tx'; tx: number; text: string; params: unknown[] }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'exec'; script: string }
  | { id: number; op: 'snapshot' }
  | { id: number; op: 'close' }

/** `id` 0 answers the opening of the database. */
export type PgliteReply = { id: number; ok: true; result?: unknown } | { id: number; ok: false; error: SerializedError }

/** The fields of a PostgreSQL error (PGlite's `DatabaseError`) the service or its logs may read. */
const FIELDS = ['code', 'severity', 'detail', 'hint', 'position', 'schema', 'table', 'column', 'dataType', 'constraint', 'routine'] as const

export type SerializedError = {
  name: string
  message: string
  reason?: UnavailableReason
  fields: Partial<Record<(typeof FIELDS)[number], string>>
}

export function serializeError(e: unknown): SerializedError {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e), fields: {} }
  const fields: SerializedError['fields'] = {}
  for (const f of FIELDS) {
    const v = (e as unknown as Record<string, unknown>)[f]
    if (typeof v === 'string') fields[f] = v
  }
  const out: SerializedError = { name: e.name, message: e.message, fields }
  if (e instanceof DatabaseUnavailableError) out.reason = e.reason
  return out
}

/** A PostgreSQL error from the worker: the message and fields of the original. */
export class DatabaseError extends Error {
  code?: string
  severity?: string
  detail?: string
  constraint?: string
}

export function deserializeError(s: SerializedError): Error {
  if (s.name === 'DatabaseUnavailableError' && s.reason) return new DatabaseUnavailableError(s.reason, s.message)
  const e = new DatabaseError(s.message)
  e.name = s.name
  Object.assign(e, s.fields)
  return e
}
