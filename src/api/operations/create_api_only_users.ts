/** create_api_only_users (hosted OpenAPI v1CreateApiOnlyUsersIntent / v1CreateApiOnlyUsersResult). */
import { z } from 'zod'
import { ApiKeyCurve } from '../enums.js'
import { ExpirationSeconds } from '../fields.js'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_API_KEYS_PER_USER, MAX_USER_TAGS, MAX_USERS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** apiApiKeyParams: an API key without `curveType` is P-256. */
const ApiOnlyKey = z.object({
  apiKeyName: z.string(),
  publicKey: z.string(),
  curveType: ApiKeyCurve.optional(),
  expirationSeconds: ExpirationSeconds.optional(),
})

/** Creates users that hold only API keys: ACTIVITY_TYPE_CREATE_API_ONLY_USERS. */
export const createApiOnlyUsers = defineSubmit({
  name: 'create_api_only_users',
  path: '/public/v1/submit/create_api_only_users',
  type: 'ACTIVITY_TYPE_CREATE_API_ONLY_USERS',
  intentKey: 'createApiOnlyUsersIntent',
  resultKey: 'createApiOnlyUsersResult',
  parameters: z.object({
    apiOnlyUsers: boundedArray(
      z.object({
        userName: z.string().min(1, { error: 'required' }),
        userEmail: z.string().optional(),
        userTags: boundedArray(z.string(), MAX_USER_TAGS),
        apiKeys: boundedArray(ApiOnlyKey, MAX_API_KEYS_PER_USER),
      }),
      MAX_USERS,
    ),
  }),
  result: z.object({ userIds: StringArray }),
})
