import type { z } from 'zod'
import type { updateUserEmail } from '../../api/operations/update_user_email.js'
import { updateUserFields } from '../store/users.js'
import { spendContactToken } from './shared/contactToken.js'
import { requireUser } from './shared/lookup.js'
import { checkEmail, contactsVouched } from './shared/users.js'
import type { ActivityHandler } from './types.js'

/**
 * update_user_email: sets the email ("" removes it). A `verificationToken` (from verify_otp, for
 * this email) is checked and spent with the change, and the email then counts for login, account
 * lookup and recovery; without one the email is set unverified, as the hosted SDK documents, and
 * counts for nothing (anyone can type a victim's address) unless the root organization's users
 * (the operator) set it (shared/users.ts `contactsVouched`). `{userId}`.
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
  // A contact counts for login and lookup only when proven, or set by the operator.
  const contactsVerified = p.verificationToken !== undefined || (await contactsVouched(ctx))
  await updateUserFields(ctx.tx, user.id, { userEmail: email, contactsVerified }, ctx.now)
  return { userId: user.id }
}
