/**
 * The verification token of a contact change (update_user_email / update_user_phone_number): when
 * given, it must be this service's, unexpired, unspent, issued in this organization or an ancestor,
 * of the right OTP type and for the new contact; it is spent by the change.
 */
import { fieldError } from '../../../api/errors.js'
import { verifyVerificationToken } from '../../../crypto/jwt.js'
import { isSelfOrAncestor } from '../../store/organizations.js'
import { spendVerificationToken } from '../../store/otps.js'
import type { ActivityContext } from '../../activityContext.js'

const FIELD = 'parameters.verificationToken'

/** @throws TOKEN_INVALID naming parameters.verificationToken */
export async function spendContactToken(
  ctx: ActivityContext,
  token: string,
  type: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS',
  contact: string,
): Promise<void> {
  const fail = (description: string) => fieldError('TOKEN_INVALID', FIELD, description)
  const v = verifyVerificationToken(token, ctx.rt.keys.verifier.publicKeyHex, { nowMs: ctx.now })
  if (!v.ok) throw fail(v.reason === 'TOKEN_EXPIRED' ? 'expired' : 'not a valid verification token of this service')
  const claims = v.claims
  if (!(await isSelfOrAncestor(ctx.tx, claims.organization_id, ctx.organizationId))) throw fail('was issued for another organization')
  if (claims.verification_type !== type)
    throw fail(`verifies ${claims.verification_type === 'OTP_TYPE_SMS' ? 'a phone number' : 'an email'}, not this contact`)
  if (claims.contact !== contact) throw fail('does not verify this contact')
  if (!(await spendVerificationToken(ctx.tx, claims.id, ctx.now))) throw fail('has already been used')
}
