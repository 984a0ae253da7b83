/** create_oauth_providers, both versions on one path (hosted OpenAPI v1CreateOauthProvidersIntent(V2), service-interface.md results). */
import { z } from 'zod'
import { OauthProviderParams } from '../common.js'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_OAUTH_PROVIDERS_PER_USER } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Adds OAuth providers (by verified OIDC token, or by claims) to a user: ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2. */
export const createOauthProviders = defineSubmit({
  name: 'create_oauth_providers',
  path: '/public/v1/submit/create_oauth_providers',
  type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2',
  intentKey: 'createOauthProvidersIntentV2',
  resultKey: 'createOauthProvidersResultV2',
  parameters: z.object({
    userId: z.string(),
    oauthProviders: boundedArray(OauthProviderParams, MAX_OAUTH_PROVIDERS_PER_USER),
  }),
  result: z.object({ providerIds: StringArray }),
})

/** The first version: providers by OIDC token only (ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS). */
export const createOauthProvidersV1 = defineSubmit({
  name: 'create_oauth_providers_v1',
  path: '/public/v1/submit/create_oauth_providers',
  type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS',
  intentKey: 'createOauthProvidersIntent',
  resultKey: 'createOauthProvidersResult',
  parameters: z.object({
    userId: z.string(),
    oauthProviders: boundedArray(z.object({ providerName: z.string(), oidcToken: z.string() }), MAX_OAUTH_PROVIDERS_PER_USER),
  }),
  result: z.object({ providerIds: StringArray }),
})
