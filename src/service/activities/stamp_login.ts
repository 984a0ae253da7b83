import type { z } from 'zod'
import type { stampLogin } from '../../api/operations/stamp_login.js'
import { invalidField, SigilError } from '../../api/errors.js'
import { spendVerificationToken } from '../store/otps.js'
import { expirySeconds, issueSession } from '../auth/sessionKeys.js'
import type { ActivityHandler } from './types.js'

/**
 * stamp_login (wire-formats B4, B6): a session JWT for the stamping credential's user, with the
 * client's `publicKey` registered as a LOGIN credential. Accepts X-Stamp, X-Stamp-Webauthn
 * (credential found among sub-organizations of the named one) and X-Stamp-Attested (a
 * verification token or an OIDC ID token, spent here: each token once, whoever it names; a user
 * logs in again with a fresh token). A session stamped with a key issued under a session profile
 * issues sessions under that same profile.
 *
 * @throws FAILED_PRECONDITION when the activity runs after consensus instead of at submission (there is no stamping credential)
 * @throws TOKEN_INVALID when the X-Stamp-Attested verification token or ID token has already been used
 * @throws NOT_FOUND when parameters.sessionProfileId is not a session profile of the user's organization or an organization above it
 * @throws INVALID_ARGUMENT when the stamping session was issued under a session profile and parameters.sessionProfileId names another, or parameters.expirationSeconds is not a positive number of seconds or parameters.publicKey is not a hex P-256 public key
 */
export const handler: ActivityHandler<z.infer<typeof stampLogin.parameters>> = async (ctx, p) => {
  const principal = ctx.principal
  if (!principal) throw new SigilError('FAILED_PRECONDITION', 'stamp_login runs only at submission, not after consensus')
  if (principal.credentialKind === 'ATTESTED' && !(await spendVerificationToken(ctx.tx, principal.credentialId, ctx.now))) {
    throw new SigilError('TOKEN_INVALID', 'X-Stamp-Attested: this token has already been used')
  }
  // A session under a profile cannot mint itself a wider one: a login it stamps keeps its profile.
  const inherited = principal.sessionScope?.id
  if (inherited !== undefined && p.sessionProfileId !== undefined && p.sessionProfileId !== inherited) {
    throw invalidField(
      'parameters.sessionProfileId',
      'a session issued under a session profile can only log in again under the same profile',
    )
  }
  const session = await issueSession(ctx, {
    orgId: principal.organizationId,
    userId: principal.userId,
    publicKey: p.publicKey,
    expirationSeconds: p.expirationSeconds === undefined ? undefined : expirySeconds(p.expirationSeconds, 'parameters.expirationSeconds'),
    invalidateExisting: p.invalidateExisting,
    sessionProfileId: p.sessionProfileId ?? inherited,
  })
  return { session }
}
