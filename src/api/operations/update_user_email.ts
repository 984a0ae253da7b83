/** update_user_email (hosted OpenAPI v1UpdateUserEmailIntent / v1UpdateUserEmailResult). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Sets or (with "") removes a user's email, verified by an OTP verification token when given: ACTIVITY_TYPE_UPDATE_USER_EMAIL. */
export const updateUserEmail = defineSubmit({
  name: 'update_user_email',
  path: '/public/v1/submit/update_user_email',
  type: 'ACTIVITY_TYPE_UPDATE_USER_EMAIL',
  intentKey: 'updateUserEmailIntent',
  resultKey: 'updateUserEmailResult',
  parameters: z.object({
    userId: z.string().min(1, { error: 'required' }),
    userEmail: z.string(),
    verificationToken: z.string().min(1, { error: 'must not be empty' }).optional(),
  }),
  result: z.object({ userId: z.string() }),
})
