import type { z } from 'zod'
import type { updateUserEmail } from '../../api/operations/update_user_email.js'
import { updateUserFields } from '../store/users.js'
import { spendContactToken } from './shared/contactToken.js'
import { requireUser } from './shared/lookup.js'
import { checkEmail } from './shared/users.js'
import type { ActivityHandler } from './types.js'

/**
 * update_user_email: sets the email ("" removes it). A `verificationToken` (from verify_otp, for
 * this email) is checked and spent with the change; without one the email is set unverified, as
 * the hosted SDK documents. `{userId}`.
 *
 * @throws NOT_FOUND when parameters.userId names no user of the organization
 * @throws INVALID_ARGUMENT when parameters.userEmail is malformed
 * @throws TOKEN_INVALID when parameters.verificationToken is not this service's, expired, spent, of another organization, or not for this email
 */
export const handler: ActivityHandler<z.infer<typeof updateUserEmail.parameters>> = async (ctx, p) => {
  const user = await requireUser(ctx.tx, ctx.organizationId, p.userId, 'parameters.userId')
  const email = p.userEmail === '' ? null : checkEmail(p.userEmail, 'parameters.userEmail')
  if (p.verificationToken !== undefined) {
    await spendContactToken(ctx, p.verificationToken, 'OTP_TYPE_EMAIL', email ?? '')
  }
  await updateUserFields(ctx.tx, user.id, { userEmail: email }, ctx.now)
  return { userId: user.id }
}
