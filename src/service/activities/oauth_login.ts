import type { z } from 'zod'
import type { oauthLogin } from '../../api/operations/oauth_login.js'
import { userOfIdToken } from './shared/oauthIdentity.js'
import { expirySeconds, issueSession } from '../auth/sessionKeys.js'
import type { ActivityHandler } from './types.js'

/**
 * oauth_login: verifies the OIDC ID token (trusted issuer, audience, expiry, nonce = sha256 of
 * publicKey), finds the user with its identity in the organization or a sub-organization, registers
 * publicKey as its session key and returns the session JWT (wire-formats B3).
 *
 * @throws TOKEN_INVALID when parameters.oidcToken is not a valid ID token of a trusted issuer for an accepted audience, has expired, or its nonce is not sha256 of parameters.publicKey
 * @throws NOT_FOUND when no user of the organization or its sub-organizations has the token's OAuth identity
 * @throws INVALID_ARGUMENT when parameters.publicKey is not a hex P-256 public key or parameters.expirationSeconds is not a positive number of seconds
 * @throws UNAVAILABLE when the issuer's signing keys cannot be fetched
 */
export const handler: ActivityHandler<z.infer<typeof oauthLogin.parameters>> = async (ctx, p) => {
  const user = await userOfIdToken(ctx, p.oidcToken, p.publicKey, 'parameters.publicKey')
  const session = await issueSession(ctx, {
    orgId: user.organization_id,
    userId: user.id,
    publicKey: p.publicKey,
    expirationSeconds: p.expirationSeconds === undefined ? undefined : expirySeconds(p.expirationSeconds, 'parameters.expirationSeconds'),
    invalidateExisting: p.invalidateExisting,
    sessionProfileId: p.sessionProfileId,
  })
  return { session }
}
