/** create_user_tag (hosted OpenAPI v1CreateUserTagIntent / v1CreateUserTagResult). */
import { z } from 'zod'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_USERS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Creates a user tag and puts it on users: ACTIVITY_TYPE_CREATE_USER_TAG. */
export const createUserTag = defineSubmit({
  name: 'create_user_tag',
  path: '/public/v1/submit/create_user_tag',
  type: 'ACTIVITY_TYPE_CREATE_USER_TAG',
  intentKey: 'createUserTagIntent',
  resultKey: 'createUserTagResult',
  parameters: z.object({
    userTagName: z.string().min(1, { error: 'required' }).max(256, { error: 'at most 256 characters' }),
    userIds: boundedArray(z.string(), MAX_USERS),
  }),
  result: z.object({ userTagId: z.string(), userIds: StringArray }),
})
