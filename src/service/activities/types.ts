import type { z } from 'zod'
import type { AnySubmitOperation } from '../../api/registry.js'
import type { ActivityContext } from '../activityContext.js'

/**
 * One wire operation's effects. Runs inside the activity's transaction: it either
 * returns the result object (stored under the operation's result key) or throws a
 * SigilError, in which case every effect is rolled back and the activity is FAILED.
 */
export type ActivityHandler<P = never, R extends Record<string, unknown> = Record<string, unknown>> = (
  ctx: ActivityContext,
  params: P,
) => Promise<R>

/** Every activity `type` the registry declares. */
export type SubmitType = AnySubmitOperation['type']
/** The registry's definition of one activity type. */
export type SubmitOperationOf<T extends SubmitType> = Extract<AnySubmitOperation, { type: T }>
/** The parameters of `T` as its schema parses them. */
export type ParametersOf<T extends SubmitType> = z.output<SubmitOperationOf<T>['parameters']>

/** Votes are cast by the engine itself (they execute other activities). */
export type VoteType = 'ACTIVITY_TYPE_APPROVE_ACTIVITY' | 'ACTIVITY_TYPE_REJECT_ACTIVITY'

/**
 * The handler table, typed from the registry: one handler per declared activity type, taking that
 * type's parsed parameters. A declared type without a handler, or a handler whose parameters drift
 * from its schema, fails `tsc` (test/types/handlers.ts proves it). Results are checked against the
 * operation's result schema when the handler returns (the engine), before anything commits.
 */
export type ActivityHandlerTable<Types extends SubmitType = SubmitType> = {
  readonly [T in Types]: ActivityHandler<ParametersOf<T>>
}

/**
 * Calls the handler of `definition` with parameters its schema has already parsed. A table keyed
 * by a runtime `type` string gives a union of handlers; this is the one place that picks the
 * member for the definition in hand.
 */
export function callHandler(
  handler: ActivityHandlerTable[SubmitType],
  ctx: ActivityContext,
  parameters: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  return (handler as ActivityHandler<Record<string, unknown>>)(ctx, parameters)
}
