/** create_api_keys (service-interface.md Intents "createApiKeysIntent"; Turnkey V2 with curveType). */
import { z } from 'zod'
import { ApiKeyParamsNoCurve, ApiKeysParam } from '../common.js'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_API_KEYS_PER_USER } from '../limits.js'
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

/** ACTIVITY_TYPE_CREATE_API_KEYS, on the same path: keys without `curveType` are P-256. */
export const createApiKeysV1 = defineSubmit({
  name: 'create_api_keys_v1',
  path: '/public/v1/submit/create_api_keys',
  type: 'ACTIVITY_TYPE_CREATE_API_KEYS',
  intentKey: 'createApiKeysIntent',
  resultKey: 'createApiKeysResult',
  parameters: z.object({ apiKeys: boundedArray(ApiKeyParamsNoCurve, MAX_API_KEYS_PER_USER), userId: z.string() }),
  result: z.object({ apiKeyIds: StringArray }),
})
