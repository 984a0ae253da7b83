/** update_user (service-interface.md Results "updateUserResult"; hosted OpenAPI v1UpdateUserIntent). */
import { z } from 'zod'
import { boundedArray } from '../fields.js'
import { MAX_USER_TAGS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Updates a user's name, email, phone number and tags: ACTIVITY_TYPE_UPDATE_USER. */
export const updateUser = defineSubmit({
  name: 'update_user',
  path: '/public/v1/submit/update_user',
  type: 'ACTIVITY_TYPE_UPDATE_USER',
  intentKey: 'updateUserIntent',
  resultKey: 'updateUserResult',
  parameters: z.object({
    userId: z.string().min(1, { error: 'required' }),
    userName: z.string().min(1, { error: 'must not be empty' }).max(256, { error: 'at most 256 characters' }).optional(),
    userEmail: z.string().optional(),
    userTagIds: boundedArray(z.string(), MAX_USER_TAGS).optional(),
    userPhoneNumber: z.string().optional(),
  }),
  result: z.object({ userId: z.string() }),
})
