/** update_user_phone_number (hosted OpenAPI v1UpdateUserPhoneNumberIntent / v1UpdateUserPhoneNumberResult). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Sets or (with "") removes a user's phone number, verified by an OTP verification token when given: ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER. */
export const updateUserPhoneNumber = defineSubmit({
  name: 'update_user_phone_number',
  path: '/public/v1/submit/update_user_phone_number',
  type: 'ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER',
  intentKey: 'updateUserPhoneNumberIntent',
  resultKey: 'updateUserPhoneNumberResult',
  parameters: z.object({
    userId: z.string().min(1, { error: 'required' }),
    userPhoneNumber: z.string(),
    verificationToken: z.string().min(1, { error: 'must not be empty' }).optional(),
  }),
  result: z.object({ userId: z.string() }),
})
