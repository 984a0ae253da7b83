/** delete_oauth_providers (hosted OpenAPI v1DeleteOauthProvidersIntent / v1DeleteOauthProvidersResult). */
import { z } from 'zod'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_OAUTH_PROVIDERS_PER_USER } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Removes OAuth providers from a user: ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS. */
export const deleteOauthProviders = defineSubmit({
  name: 'delete_oauth_providers',
  path: '/public/v1/submit/delete_oauth_providers',
  type: 'ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS',
  intentKey: 'deleteOauthProvidersIntent',
  resultKey: 'deleteOauthProvidersResult',
  parameters: z.object({
    userId: z.string(),
    providerIds: boundedArray(z.string(), MAX_OAUTH_PROVIDERS_PER_USER),
  }),
  result: z.object({ providerIds: StringArray }),
})
