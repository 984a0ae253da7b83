/** get_authenticators (hosted OpenAPI v1GetAuthenticatorsRequest / v1GetAuthenticatorsResponse). */
import { z } from 'zod'
import { Authenticator, OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'

/** Lists the passkeys of one user. */
export const getAuthenticators = defineQuery({
  name: 'get_authenticators',
  path: '/public/v1/query/get_authenticators',
  request: OrganizationScoped.extend({ userId: z.string().min(1, { error: 'required' }) }),
  response: z.object({ authenticators: z.array(Authenticator) }),
})
