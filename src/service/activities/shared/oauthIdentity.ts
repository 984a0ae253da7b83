import { SigilError } from '../../../api/errors.js'
import { acceptedNonces } from '../../auth/nonces.js'
import { findUserInTreeByOauthIdentity } from '../../store/oauthProviders.js'
import type { UserRow } from '../../store/users.js'
import type { ActivityContext } from '../../activityContext.js'

/**
 * The user an OIDC ID token logs in (OAUTH, OAUTH_LOGIN): the token verified with its nonce bound to
 * `publicKey`, then the user holding that identity in the request organization or a sub-organization.
 *
 * @throws TOKEN_INVALID naming parameters.oidcToken when the token does not verify or its nonce is not bound to the key
 * @throws NOT_FOUND when no user of the organization or its sub-organizations has the token's identity
 */
export async function userOfIdToken(ctx: ActivityContext, oidcToken: string, publicKey: string, keyField: string): Promise<UserRow> {
  const nonces = acceptedNonces(publicKey, keyField)
  const t = await ctx.rt.oidc.verify(oidcToken, { field: 'parameters.oidcToken', nonce: nonces })
  const user = await findUserInTreeByOauthIdentity(ctx.tx, ctx.organizationId, t)
  if (!user)
    throw new SigilError('NOT_FOUND', 'parameters.oidcToken: no user with this OAuth identity in the organization or its sub-organizations')
  return user
}
