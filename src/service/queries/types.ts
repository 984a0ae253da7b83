import type { z } from 'zod'
import type { AnyQueryOperation } from '../../api/registry.js'
import type { Principal } from '../auth/principal.js'
import type { Runtime } from '../runtime.js'
import type { Sql } from '../store/sql.js'

/** What a query handler sees. */
export type QueryContext = { sql: Sql; rt: Runtime; principal: Principal; organizationId: string }

/** One query's answer, read-only: the request as its schema parsed it → the response body. */
export type QueryHandler<Q = unknown, R = unknown> = (ctx: QueryContext, request: Q) => Promise<R>

/** Every query name the registry declares. */
export type QueryName = AnyQueryOperation['name']
/** The registry's definition of one query. */
export type QueryOperationOf<N extends QueryName> = Extract<AnyQueryOperation, { name: N }>

/**
 * The query table, typed from the registry: one handler per declared query, taking its parsed
 * request. A declared query without a handler, or a handler whose request type drifts from its
 * schema, fails `tsc` (test/types/handlers.ts proves it); the response is checked against the
 * response schema at run time.
 */
export type QueryHandlerTable = {
  readonly [N in QueryName]: QueryHandler<z.output<QueryOperationOf<N>['request']>>
}

/** Calls the handler of a query with the request its schema has already parsed (see `callHandler`). */
export function callQuery(handler: QueryHandlerTable[QueryName], ctx: QueryContext, request: Record<string, unknown>): Promise<unknown> {
  return (handler as QueryHandler<Record<string, unknown>>)(ctx, request)
}
