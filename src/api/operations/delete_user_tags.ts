/** delete_user_tags (hosted OpenAPI v1DeleteUserTagsIntent / v1DeleteUserTagsResult). */
import { z } from 'zod'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_USER_TAGS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Deletes user tags, taking them off every user: ACTIVITY_TYPE_DELETE_USER_TAGS. */
export const deleteUserTags = defineSubmit({
  name: 'delete_user_tags',
  path: '/public/v1/submit/delete_user_tags',
  type: 'ACTIVITY_TYPE_DELETE_USER_TAGS',
  intentKey: 'deleteUserTagsIntent',
  resultKey: 'deleteUserTagsResult',
  parameters: z.object({ userTagIds: boundedArray(z.string(), MAX_USER_TAGS) }),
  result: z.object({ userTagIds: StringArray, userIds: StringArray }),
})
