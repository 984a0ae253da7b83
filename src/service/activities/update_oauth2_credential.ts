import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { updateOauth2Credential } from '../../api/operations/update_oauth2_credential.js'
import { decryptClientSecret } from '../oauth2/clientSecret.js'
import { updateOauth2Credential as storeUpdate } from '../store/oauth2Credentials.js'
import type { ActivityHandler } from './types.js'

/**
 * update_oauth2_credential: replaces provider, client id and secret of one credential.
 *
 * @throws NOT_FOUND when parameters.oauth2CredentialId names no OAuth 2.0 credential of the organization
 * @throws BUNDLE_INVALID when parameters.encryptedClientSecret is not encrypted to the service's provider-secrets key
 */
export const handler: ActivityHandler<z.infer<typeof updateOauth2Credential.parameters>> = async (ctx, p) => {
  const clientSecret = await decryptClientSecret(p.encryptedClientSecret, ctx.rt.keys.onramp.privateKey)
  try {
    const fields = { ...p, clientSecret, id: p.oauth2CredentialId, orgId: ctx.organizationId, now: ctx.now }
    if (!(await storeUpdate(ctx.tx, ctx.rt.secrets, fields))) {
      throw fieldError('NOT_FOUND', 'parameters.oauth2CredentialId', 'no such OAuth 2.0 credential in the organization')
    }
  } finally {
    clientSecret.fill(0)
  }
  return { oauth2CredentialId: p.oauth2CredentialId }
}
