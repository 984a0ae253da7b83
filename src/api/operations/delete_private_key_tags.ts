/** delete_private_key_tags (service-interface.md Intents "deletePrivateKeyTagsIntent", Results "deletePrivateKeyTagsResult"). */
import { z } from 'zod'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_USER_TAGS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Deletes private-key tags, taking them off every key: ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS. */
export const deletePrivateKeyTags = defineSubmit({
  name: 'delete_private_key_tags',
  path: '/public/v1/submit/delete_private_key_tags',
  type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS',
  intentKey: 'deletePrivateKeyTagsIntent',
  resultKey: 'deletePrivateKeyTagsResult',
  parameters: z.object({ privateKeyTagIds: boundedArray(z.string(), MAX_USER_TAGS) }),
  result: z.object({ privateKeyTagIds: StringArray, privateKeyIds: StringArray }),
})
