import type { z } from 'zod'
import type { createReadOnlySession } from '../../api/operations/create_read_only_session.js'
import { SigilError } from '../../api/errors.js'
import { signSessionJwt } from '../../crypto/jwt.js'
import { getOrganization } from '../store/organizations.js'
import { getUser } from '../store/users.js'
import type { ActivityHandler } from './types.js'

/** A read-only session lasts one hour (hosted docs: "valid for 1 hour"). */
export const READ_ONLY_SESSION_SECONDS = 3600

/**
 * create_read_only_session: a session JWT (wire-formats B3) of
 * `session_type` SESSION_TYPE_READ_ONLY for the submitting user, signed by the service's session
 * key and valid for an hour. Sent as the `X-Session` header it authenticates queries as that user;
 * authentication refuses it on every submit path (auth/authenticate.ts), so it never writes.
 * `public_key` is the public key of the credential that created the session (there is no client key).
 *
 * @throws NOT_FOUND when the submitting user no longer exists (an activity approved after its submitter was deleted)
 */
export const handler: ActivityHandler<z.infer<typeof createReadOnlySession.parameters>> = async (ctx) => {
  const { userId, organizationId } = ctx.submitter
  const user = await getUser(ctx.tx, organizationId, userId)
  if (!user) throw new SigilError('NOT_FOUND', `user ${userId} not found in the organization`)
  const org = await getOrganization(ctx.tx, organizationId)
  const exp = Math.floor(ctx.now / 1000) + READ_ONLY_SESSION_SECONDS
  const session = signSessionJwt({
    claims: {
      exp,
      public_key: ctx.principal?.publicKey ?? '',
      session_type: 'SESSION_TYPE_READ_ONLY',
      user_id: userId,
      organization_id: organizationId,
    },
    signerPrivateKey: ctx.rt.keys.session.privateKey,
  })
  return {
    organizationId,
    organizationName: org?.name ?? '',
    userId,
    username: user.user_name,
    session,
    sessionExpiry: String(exp),
  }
}
