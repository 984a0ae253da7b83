import type { Principal } from '../auth/principal.js'
import type { Runtime } from '../runtime.js'
import type { Sql } from '../store/sql.js'

/** What an activity handler sees: its transaction and the facts of the activity. */
export type ActivityContext = {
  tx: Sql
  rt: Runtime
  now: number
  activityId: string
  /** The exact submitted body of this activity (the message of a vote it casts). */
  body: string
  type: string
  /** The organization the activity acts in. */
  organizationId: string
  /** Who submitted it (for consensus-approved activities: the original submitter). */
  submitter: Pick<Principal, 'userId' | 'organizationId'>
  /** The signing credential, when the activity runs at submission (not after consensus). */
  principal: Principal | undefined
}

/**
 * One wire operation's effects. Runs inside the activity's transaction: it either
 * returns the result object (stored under the operation's result key) or throws a
 * SigilError, in which case every effect is rolled back and the activity is FAILED.
 */
export type ActivityHandler<P = never, R extends Record<string, unknown> = Record<string, unknown>> = (
  ctx: ActivityContext,
  params: P,
) => Promise<R>

/**
 * Calls a handler taken from a table keyed by activity type, with parameters its operation's
 * schema has already parsed. The table erases each handler's parameter type; this is the one
 * place that restores it (issue 20 types the table from the registry instead).
 */
export function callHandler<R extends Record<string, unknown>>(
  handler: ActivityHandler<never, R>,
  ctx: ActivityContext,
  parameters: Record<string, unknown>,
): Promise<R> {
  return (handler as ActivityHandler<Record<string, unknown>, R>)(ctx, parameters)
}
