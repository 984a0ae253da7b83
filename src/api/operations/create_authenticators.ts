/** create_authenticators (service-interface.md "Submit operations" 1). */
import { z } from 'zod'
import { AuthenticatorsParam, LegacyAuthenticatorParams } from '../common.js'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_AUTHENTICATORS_PER_USER } from '../limits.js'
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

/**
 * ACTIVITY_TYPE_CREATE_AUTHENTICATORS (V1), on the same path: authenticators in the legacy form
 * (hosted v1AuthenticatorParams: the browser's PublicKeyCredential as it came, plus a `userId`).
 */
export const createAuthenticatorsV1 = defineSubmit({
  name: 'create_authenticators_v1',
  path: '/public/v1/submit/create_authenticators',
  type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS',
  intentKey: 'createAuthenticatorsIntent',
  resultKey: 'createAuthenticatorsResult',
  parameters: z.object({
    authenticators: boundedArray(LegacyAuthenticatorParams, MAX_AUTHENTICATORS_PER_USER),
    userId: z.string(),
  }),
  result: z.object({ authenticatorIds: StringArray }),
})
