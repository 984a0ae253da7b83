/** create_api_keys (service-interface.md Intents "createApiKeysIntent"; Turnkey V2 with curveType). */
import { z } from 'zod'
import { ApiKeysParam } from '../common.js'
import { StringArray } from '../fields.js'
import { defineSubmit } from '../operation.js'

/** Adds API keys to a user: ACTIVITY_TYPE_CREATE_API_KEYS_V2. */
export const createApiKeys = defineSubmit({
  name: 'create_api_keys',
  path: '/public/v1/submit/create_api_keys',
  type: 'ACTIVITY_TYPE_CREATE_API_KEYS_V2',
  intentKey: 'createApiKeysIntentV2',
  resultKey: 'createApiKeysResult',
  parameters: z.object({ apiKeys: ApiKeysParam, userId: z.string() }),
  result: z.object({ apiKeyIds: StringArray }),
})
