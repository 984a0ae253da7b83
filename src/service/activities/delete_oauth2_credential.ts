import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { deleteOauth2Credential } from '../../api/operations/delete_oauth2_credential.js'
import { deleteOauth2Credential as storeDelete } from '../store/oauth2Credentials.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_oauth2_credential: removes one credential and its sealed secret; oauth2_authenticate with it is refused from then on.
 *
 * @throws NOT_FOUND when parameters.oauth2CredentialId names no OAuth 2.0 credential of the organization
 */
export const handler: ActivityHandler<z.infer<typeof deleteOauth2Credential.parameters>> = async (ctx, p) => {
  if (!(await storeDelete(ctx.tx, ctx.organizationId, p.oauth2CredentialId))) {
    throw fieldError('NOT_FOUND', 'parameters.oauth2CredentialId', 'no such OAuth 2.0 credential in the organization')
  }
  return { oauth2CredentialId: p.oauth2CredentialId }
}
