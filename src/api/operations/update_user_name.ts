/** update_user_name (hosted OpenAPI v1UpdateUserNameIntent / v1UpdateUserNameResult). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Renames a user: ACTIVITY_TYPE_UPDATE_USER_NAME. */
export const updateUserName = defineSubmit({
  name: 'update_user_name',
  path: '/public/v1/submit/update_user_name',
  type: 'ACTIVITY_TYPE_UPDATE_USER_NAME',
  intentKey: 'updateUserNameIntent',
  resultKey: 'updateUserNameResult',
  parameters: z.object({
    userId: z.string().min(1, { error: 'required' }),
    userName: z.string().min(1, { error: 'required' }).max(256, { error: 'at most 256 characters' }),
  }),
  result: z.object({ userId: z.string() }),
})
