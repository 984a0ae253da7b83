/**
 * Type-level tests, checked by `tsc` (the typecheck runner of `npm test`): the handler tables are typed
 * from the registry, so a declared operation without a handler, or a handler whose parameters drift
 * from its schema, does not compile. Each `@ts-expect-error` below fails the build if the line under
 * it ever compiles, i.e. if the tables stopped catching that mistake.
 */
import type { EngineHandlers } from '../../src/service/activities/engine.js'
import { ACTIVITY_HANDLERS } from '../../src/service/activities/index.js'
import type { ActivityHandler } from '../../src/service/activities/types.js'
import { QUERY_HANDLERS } from '../../src/service/queries/index.js'
import type { QueryHandler, QueryHandlerTable } from '../../src/service/queries/types.js'

// The real tables satisfy the registry.
ACTIVITY_HANDLERS satisfies EngineHandlers
QUERY_HANDLERS satisfies QueryHandlerTable

// A declared activity type without a handler.
const { ACTIVITY_TYPE_CREATE_WALLET: _createWallet, ...withoutCreateWallet } = ACTIVITY_HANDLERS
// @ts-expect-error ACTIVITY_TYPE_CREATE_WALLET is declared in the registry and has no handler
withoutCreateWallet satisfies EngineHandlers

// A declared query without a handler.
const { get_send_transaction_status: _status, ...withoutStatus } = QUERY_HANDLERS
// @ts-expect-error get_send_transaction_status is declared in the registry and has no handler
withoutStatus satisfies QueryHandlerTable

// A handler whose parameters drift from the schema (walletName is a string on the wire).
const drifted: ActivityHandler<{ walletName: number }> = async () => ({})
// @ts-expect-error create_wallet's handler must take create_wallet's parsed parameters
;({ ...ACTIVITY_HANDLERS, ACTIVITY_TYPE_CREATE_WALLET: drifted }) satisfies EngineHandlers

// A query handler whose request drifts from the schema (walletId is a string on the wire).
const driftedQuery: QueryHandler<{ walletId: number }> = async () => ({})
// @ts-expect-error get_wallet's handler must take get_wallet's parsed request
;({ ...QUERY_HANDLERS, get_wallet: driftedQuery }) satisfies QueryHandlerTable
