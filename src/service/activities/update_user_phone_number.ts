import type { z } from 'zod'
import type { updateUserPhoneNumber } from '../../api/operations/update_user_phone_number.js'
import { updateUserFields } from '../store/users.js'
import { spendContactToken } from './shared/contactToken.js'
import { requireUser } from './shared/lookup.js'
import { checkPhone, contactsVouched } from './shared/users.js'
import type { ActivityHandler } from './types.js'

/**
 * update_user_phone_number: sets the phone number ("" removes it). A `verificationToken` (from
 * verify_otp, SMS, for this number) is checked and spent with the change; the number counts for login
 * and lookup only with one, or when the root organization's users set it, as anyone can type
 * anyone's number. `{userId}`.
 *
 * @throws NOT_FOUND when parameters.userId names no user of the organization
 * @throws INVALID_ARGUMENT when parameters.userPhoneNumber is not E.164
 * @throws TOKEN_INVALID when parameters.verificationToken is not this service's, expired, spent, of another organization, or not for this number
 */
export const handler: ActivityHandler<z.infer<typeof updateUserPhoneNumber.parameters>> = async (ctx, p) => {
  const user = await requireUser(ctx.tx, ctx.organizationId, p.userId, 'parameters.userId')
  const phone = p.userPhoneNumber === '' ? null : checkPhone(p.userPhoneNumber, 'parameters.userPhoneNumber')
  if (p.verificationToken !== undefined) {
    await spendContactToken(ctx, p.verificationToken, 'OTP_TYPE_SMS', phone ?? '')
  }
  // A contact counts for login and lookup only when proven, or set by the operator.
  const contactsVerified = p.verificationToken !== undefined || (await contactsVouched(ctx))
  await updateUserFields(ctx.tx, user.id, { userPhoneNumber: phone, contactsVerified }, ctx.now)
  return { userId: user.id }
}
