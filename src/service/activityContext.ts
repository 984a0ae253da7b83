import type { Principal } from './auth/principal.js'
import type { Runtime } from './runtime.js'
import type { Transaction } from './store/sql.js'

/**
 * What an activity handler sees: its transaction and the facts of the activity. It sits below
 * `activities/` so that what acts inside an activity (OTPs, sends, signing, session keys) takes it
 * without importing the activity handlers.
 */
export type ActivityContext = {
  /** The activity's transaction: its statements, and work to start once it commits (`tx.afterCommit`). */
  tx: Transaction
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
