/** get_oauth_providers (hosted OpenAPI v1GetOauthProvidersRequest / v1GetOauthProvidersResponse). */
import { z } from 'zod'
import { OauthProvider, OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'

/** Lists the OAuth providers of the organization's users, or of one user. */
export const getOauthProviders = defineQuery({
  name: 'get_oauth_providers',
  path: '/public/v1/query/get_oauth_providers',
  request: OrganizationScoped.extend({ userId: z.string().min(1, { error: 'must not be empty' }).optional() }),
  response: z.object({ oauthProviders: z.array(OauthProvider) }),
})
