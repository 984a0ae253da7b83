/** get_oauth2_credential (hosted OpenAPI v1GetOauth2CredentialRequest / v1GetOauth2CredentialResponse). */
import { z } from 'zod'
import { defineQuery } from '../operation.js'
import { Oauth2Credential, Oauth2CredentialId } from '../oauth2.js'

/** One OAuth 2.0 credential of the organization. */
export const getOauth2Credential = defineQuery({
  name: 'get_oauth2_credential',
  path: '/public/v1/query/get_oauth2_credential',
  request: z.object({ organizationId: z.string().min(1, { error: 'required' }), oauth2CredentialId: Oauth2CredentialId }),
  response: z.object({ oauth2Credential: Oauth2Credential }),
})
