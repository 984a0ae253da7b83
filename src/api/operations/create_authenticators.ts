/** create_authenticators (service-interface.md "Submit operations" 1). */
import { z } from 'zod'
import { AuthenticatorsParam } from '../common.js'
import { StringArray } from '../fields.js'
import { defineSubmit } from '../operation.js'

/** Adds WebAuthn authenticators to a user: ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2. */
export const createAuthenticators = defineSubmit({
  name: 'create_authenticators',
  path: '/public/v1/submit/create_authenticators',
  type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2',
  intentKey: 'createAuthenticatorsIntentV2',
  resultKey: 'createAuthenticatorsResult',
  parameters: z.object({ authenticators: AuthenticatorsParam, userId: z.string() }),
  result: z.object({ authenticatorIds: StringArray }),
})
