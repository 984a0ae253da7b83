/**
 * Operation definitions: one object per wire operation, consumed by the service
 * (dispatch + validation), the typed client and the extension
 * (service-interface.md "Endpoints"; wire-formats A2, B4).
 */
import type { z } from 'zod'
import type { ActivityType } from './enums.js'

/** Submit paths all live under `/public/v1/submit/` (service-interface.md "Versioning"). */
export type SubmitPath = `/public/v1/submit/${string}`
/** Query paths all live under `/public/v1/query/`. */
export type QueryPath = `/public/v1/query/${string}`

/**
 * A submit (activity) operation. Several definitions may share one `path` with different
 * `type` versions (verify_otp, otp_login); the service dispatches on `type` (A2).
 * `resultOf: 'target'` marks approve/reject: the response activity is the voted-on one,
 * so there is no own result entry.
 */
export interface SubmitDefinition<
  N extends string = string,
  T extends ActivityType = ActivityType,
  P extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  readonly kind: 'submit'
  readonly name: N
  readonly path: SubmitPath
  readonly type: T
  readonly intentKey: string
  readonly resultKey: string
  readonly parameters: P
  readonly result: R
  readonly resultOf: 'self' | 'target'
}

/** A query (read-only) operation: request at the top level, no envelope. */
export interface QueryDefinition<N extends string = string, Q extends z.ZodType = z.ZodType, S extends z.ZodType = z.ZodType> {
  readonly kind: 'query'
  readonly name: N
  readonly path: QueryPath
  /** Other paths that answer the same query (older spellings kept working). */
  readonly aliases?: readonly QueryPath[]
  readonly request: Q
  readonly response: S
}

/** Any definition. */
export type OperationDefinition = SubmitDefinition | QueryDefinition

type SubmitSpec<N extends string, T extends ActivityType, P extends z.ZodType, R extends z.ZodType> = Omit<
  SubmitDefinition<N, T, P, R>,
  'kind' | 'resultOf'
> & { resultOf?: 'self' | 'target' }

/** Defines a submit operation (keeps literal name/type for the client's mapped types). */
export function defineSubmit<const N extends string, const T extends ActivityType, P extends z.ZodType, R extends z.ZodType>(
  spec: SubmitSpec<N, T, P, R>,
): SubmitDefinition<N, T, P, R> {
  return Object.freeze({ kind: 'submit', resultOf: 'self', ...spec })
}

/** Defines a query operation. */
export function defineQuery<const N extends string, Q extends z.ZodType, S extends z.ZodType>(
  spec: Omit<QueryDefinition<N, Q, S>, 'kind'>,
): QueryDefinition<N, Q, S> {
  return Object.freeze({ kind: 'query', ...spec })
}
