/** get_authenticator (hosted OpenAPI v1GetAuthenticatorRequest / v1GetAuthenticatorResponse). */
import { z } from 'zod'
import { Authenticator, OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'

/** Reads one passkey of the organization. */
export const getAuthenticator = defineQuery({
  name: 'get_authenticator',
  path: '/public/v1/query/get_authenticator',
  request: OrganizationScoped.extend({ authenticatorId: z.string().min(1, { error: 'required' }) }),
  response: z.object({ authenticator: Authenticator }),
})
