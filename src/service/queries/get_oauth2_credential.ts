import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { getOauth2Credential } from '../../api/operations/get_oauth2_credential.js'
import { getOauth2Credential as readCredential, oauth2CredentialToWire } from '../store/oauth2Credentials.js'
import type { QueryHandler } from './types.js'

/**
 * get_oauth2_credential: one credential of the organization, its secret only as the ciphertext the client sent.
 *
 * @throws NOT_FOUND when oauth2CredentialId names no OAuth 2.0 credential of the organization
 */
export const handler: QueryHandler<z.output<typeof getOauth2Credential.request>> = async ({ sql, organizationId }, request) => {
  const row = await readCredential(sql, organizationId, request.oauth2CredentialId)
  if (!row) throw fieldError('NOT_FOUND', 'oauth2CredentialId', 'no such OAuth 2.0 credential in the organization')
  return { oauth2Credential: oauth2CredentialToWire(row) }
}
