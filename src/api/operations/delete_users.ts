/** delete_users (service-interface.md Intents "deleteUsersIntent"). */
import { z } from 'zod'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_USERS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Deletes users: ACTIVITY_TYPE_DELETE_USERS. */
export const deleteUsers = defineSubmit({
  name: 'delete_users',
  path: '/public/v1/submit/delete_users',
  type: 'ACTIVITY_TYPE_DELETE_USERS',
  intentKey: 'deleteUsersIntent',
  resultKey: 'deleteUsersResult',
  parameters: z.object({ userIds: boundedArray(z.string(), MAX_USERS) }),
  result: z.object({ userIds: StringArray }),
})
