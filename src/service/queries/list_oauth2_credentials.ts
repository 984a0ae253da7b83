import type { z } from 'zod'
import type { listOauth2Credentials } from '../../api/operations/list_oauth2_credentials.js'
import { listOauth2Credentials as readCredentials, oauth2CredentialToWire } from '../store/oauth2Credentials.js'
import type { QueryHandler } from './types.js'

/** list_oauth2_credentials: the organization's OAuth 2.0 credentials, oldest first, secrets only as sent (encrypted). */
export const handler: QueryHandler<z.output<typeof listOauth2Credentials.request>> = async ({ sql, organizationId }) => ({
  oauth2Credentials: (await readCredentials(sql, organizationId)).map(oauth2CredentialToWire),
})
