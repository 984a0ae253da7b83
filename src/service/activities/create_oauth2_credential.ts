import type { z } from 'zod'
import type { createOauth2Credential } from '../../api/operations/create_oauth2_credential.js'
import { decryptClientSecret } from '../oauth2/clientSecret.js'
import { insertOauth2Credential } from '../store/oauth2Credentials.js'
import type { ActivityHandler } from './types.js'

/**
 * create_oauth2_credential: stores a provider's client id and secret for oauth2_authenticate; the
 * secret is decrypted in memory and sealed at rest under the master key.
 *
 * @throws INVALID_ARGUMENT when parameters.provider is not OAUTH2_PROVIDER_X or OAUTH2_PROVIDER_DISCORD, or parameters.clientId is empty or too long
 * @throws BUNDLE_INVALID when parameters.encryptedClientSecret is not encrypted to the service's provider-secrets key
 */
export const handler: ActivityHandler<z.infer<typeof createOauth2Credential.parameters>> = async (ctx, p) => {
  const id = crypto.randomUUID()
  const clientSecret = await decryptClientSecret(p.encryptedClientSecret, ctx.rt.keys.onramp.privateKey)
  try {
    await insertOauth2Credential(ctx.tx, ctx.rt.secrets, { ...p, clientSecret, id, orgId: ctx.organizationId, now: ctx.now })
  } finally {
    clientSecret.fill(0)
  }
  return { oauth2CredentialId: id }
}
