/** update_user_tag (hosted OpenAPI v1UpdateUserTagIntent / v1UpdateUserTagResult). */
import { z } from 'zod'
import { boundedArray } from '../fields.js'
import { MAX_USERS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Renames a user tag and adds it to or removes it from users: ACTIVITY_TYPE_UPDATE_USER_TAG. */
export const updateUserTag = defineSubmit({
  name: 'update_user_tag',
  path: '/public/v1/submit/update_user_tag',
  type: 'ACTIVITY_TYPE_UPDATE_USER_TAG',
  intentKey: 'updateUserTagIntent',
  resultKey: 'updateUserTagResult',
  parameters: z.object({
    userTagId: z.string().min(1, { error: 'required' }),
    newUserTagName: z.string().min(1, { error: 'must not be empty' }).max(256, { error: 'at most 256 characters' }).optional(),
    addUserIds: boundedArray(z.string(), MAX_USERS),
    removeUserIds: boundedArray(z.string(), MAX_USERS),
  }),
  result: z.object({ userTagId: z.string() }),
})
