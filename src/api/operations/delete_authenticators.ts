/** delete_authenticators (service-interface.md Intents "deleteAuthenticatorsIntent"). */
import { z } from 'zod'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_AUTHENTICATORS_PER_USER } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Removes authenticators from a user: ACTIVITY_TYPE_DELETE_AUTHENTICATORS. */
export const deleteAuthenticators = defineSubmit({
  name: 'delete_authenticators',
  path: '/public/v1/submit/delete_authenticators',
  type: 'ACTIVITY_TYPE_DELETE_AUTHENTICATORS',
  intentKey: 'deleteAuthenticatorsIntent',
  resultKey: 'deleteAuthenticatorsResult',
  parameters: z.object({ userId: z.string(), authenticatorIds: boundedArray(z.string(), MAX_AUTHENTICATORS_PER_USER) }),
  result: z.object({ authenticatorIds: StringArray }),
})
