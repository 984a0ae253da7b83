/** update_root_quorum (service-interface.md Intents "updateRootQuorumIntent"; wire-formats A2). */
import { z } from 'zod'
import { Threshold, boundedArray } from '../fields.js'
import { MAX_USERS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Sets the root quorum `{threshold ≥ 1, userIds}`: ACTIVITY_TYPE_UPDATE_ROOT_QUORUM. */
export const updateRootQuorum = defineSubmit({
  name: 'update_root_quorum',
  path: '/public/v1/submit/update_root_quorum',
  type: 'ACTIVITY_TYPE_UPDATE_ROOT_QUORUM',
  intentKey: 'updateRootQuorumIntent',
  resultKey: 'updateRootQuorumResult',
  parameters: z.object({ threshold: Threshold, userIds: boundedArray(z.string(), MAX_USERS) }),
  result: z.object({}),
})
