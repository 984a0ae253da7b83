/** recover_user (service-interface.md "Submit operations" 2). */
import { z } from 'zod'
import { AuthenticatorParams } from '../common.js'
import { StringArray } from '../fields.js'
import { defineSubmit } from '../operation.js'

/** Adds a recovery authenticator: ACTIVITY_TYPE_RECOVER_USER; result `authenticatorId` is an array. */
export const recoverUser = defineSubmit({
  name: 'recover_user',
  path: '/public/v1/submit/recover_user',
  type: 'ACTIVITY_TYPE_RECOVER_USER',
  intentKey: 'recoverUserIntent',
  resultKey: 'recoverUserResult',
  parameters: z.object({ authenticator: AuthenticatorParams, userId: z.string() }),
  result: z.object({ authenticatorId: StringArray }),
})
