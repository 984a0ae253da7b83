/**
 * The registry of every operation Sigil defines, with path and type lookups
 * (service-interface.md "Endpoints"; wire-formats A2: dispatch on `type`, never on path alone).
 */
import type { ActivityType } from './enums.js'
import type { QueryDefinition, SubmitDefinition } from './operation.js'
import { QUERY_DEFINITIONS, SUBMIT_DEFINITIONS } from './operations/index.js'

/**
 * Every submit definition (one per accepted `type`): each `defineSubmit` of `operations/`, gathered
 * by `npm run registry` into `operations/index.ts`. Adding an operation is one file there and one
 * handler file in `src/service/activities/` (or `queries/`), then `npm run registry`.
 */
export const SUBMIT_OPERATIONS = SUBMIT_DEFINITIONS

/** Every query definition (each `defineQuery` of `operations/`). */
export const QUERY_OPERATIONS = QUERY_DEFINITIONS

/** Union of the concrete submit definitions (keeps literal names for the client). */
export type AnySubmitOperation = (typeof SUBMIT_OPERATIONS)[number]
/** Union of the concrete query definitions. */
export type AnyQueryOperation = (typeof QUERY_OPERATIONS)[number]

/** Submit definition by activity `type`. */
export const submitByType: ReadonlyMap<ActivityType, SubmitDefinition> = new Map(
  SUBMIT_OPERATIONS.map((d): [ActivityType, SubmitDefinition] => [d.type, d]),
)

/** Submit definitions accepted on each path (several `type` versions may share one). */
export const submitByPath: ReadonlyMap<string, readonly SubmitDefinition[]> = (() => {
  const m = new Map<string, SubmitDefinition[]>()
  for (const d of SUBMIT_OPERATIONS) {
    const list = m.get(d.path) ?? []
    list.push(d)
    m.set(d.path, list)
  }
  return m
})()

/** Query definition by path. */
export const queryByPath: ReadonlyMap<string, QueryDefinition> = new Map(
  (QUERY_OPERATIONS as readonly QueryDefinition[]).flatMap(
    (d): Array<[string, QueryDefinition]> => [d.path, ...(d.aliases ?? [])].map((p) => [p, d]),
  ),
)
