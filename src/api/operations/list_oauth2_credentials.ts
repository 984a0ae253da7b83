/** list_oauth2_credentials (hosted OpenAPI v1ListOauth2CredentialsRequest / v1ListOauth2CredentialsResponse). */
import { z } from 'zod'
import { OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'
import { Oauth2Credential } from '../oauth2.js'

/** The organization's OAuth 2.0 credentials, oldest first. */
export const listOauth2Credentials = defineQuery({
  name: 'list_oauth2_credentials',
  path: '/public/v1/query/list_oauth2_credentials',
  request: OrganizationScoped,
  response: z.object({ oauth2Credentials: z.array(Oauth2Credential) }),
})
