import type { z } from 'zod'
import type { oauth } from '../../api/operations/oauth.js'
import { userOfIdToken } from './shared/oauthIdentity.js'
import { expirySeconds, issueCredentialBundle } from '../auth/sessionKeys.js'
import type { ActivityHandler } from './types.js'

/**
 * oauth: verifies the OIDC ID token (trusted issuer, audience, expiry, nonce = sha256 of
 * targetPublicKey), finds the user with its identity in the organization or a sub-organization, and
 * returns a fresh OAUTH key as a credential bundle encrypted to targetPublicKey.
 *
 * @throws TOKEN_INVALID when parameters.oidcToken is not a valid ID token of a trusted issuer for an accepted audience, has expired, or its nonce is not sha256 of parameters.targetPublicKey
 * @throws NOT_FOUND when no user of the organization or its sub-organizations has the token's OAuth identity
 * @throws INVALID_ARGUMENT when parameters.targetPublicKey is not a hex P-256 public key or parameters.expirationSeconds is not a positive number of seconds
 * @throws UNAVAILABLE when the issuer's signing keys cannot be fetched
 */
export const handler: ActivityHandler<z.infer<typeof oauth.parameters>> = async (ctx, p) => {
  const user = await userOfIdToken(ctx, p.oidcToken, p.targetPublicKey, 'parameters.targetPublicKey')
  const { apiKeyId, credentialBundle } = await issueCredentialBundle(ctx, {
    orgId: user.organization_id,
    userId: user.id,
    targetPublicKey: p.targetPublicKey,
    credentialType: 'CREDENTIAL_TYPE_OAUTH_KEY_P256',
    apiKeyName: p.apiKeyName || `OAuth - ${ctx.now}`,
    expirationSeconds: expirySeconds(p.expirationSeconds, 'parameters.expirationSeconds'),
    invalidateExisting: p.invalidateExisting,
  })
  return { userId: user.id, apiKeyId, credentialBundle }
}
