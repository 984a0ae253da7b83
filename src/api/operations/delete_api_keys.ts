/** delete_api_keys (service-interface.md Intents "deleteApiKeysIntent"). */
import { z } from 'zod'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_API_KEYS_PER_USER } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Removes API keys from a user: ACTIVITY_TYPE_DELETE_API_KEYS. */
export const deleteApiKeys = defineSubmit({
  name: 'delete_api_keys',
  path: '/public/v1/submit/delete_api_keys',
  type: 'ACTIVITY_TYPE_DELETE_API_KEYS',
  intentKey: 'deleteApiKeysIntent',
  resultKey: 'deleteApiKeysResult',
  parameters: z.object({ userId: z.string(), apiKeyIds: boundedArray(z.string(), MAX_API_KEYS_PER_USER) }),
  result: z.object({ apiKeyIds: StringArray }),
})
