import { fieldError, SigilError } from '../../api/errors.js'
import type { ActivityContext } from '../activities/types.js'
import { isSelfOrAncestor } from '../store/organizations.js'
import { countWrongAttempts, lockOtp, markOtpUsed, type OtpRow } from '../store/otps.js'
import { normaliseOtpInput, otpCodeMatches, otpHashKey } from './code.js'

/** SDK-recognised wrong-code message (wire-formats B5 → INVALID_OTP_CODE). */
export const INVALID_OTP_MESSAGE = 'Invalid OTP code'
/** Wrong codes allowed before an OTP is dead (issue 5). */
export const MAX_WRONG_ATTEMPTS = 5

/**
 * Checks a code against an OTP and spends it (issue 5): it must exist for this organization
 * (or an ancestor), be unused, unexpired, have fewer than 5 wrong attempts, and match in
 * constant time. A wrong code fails the activity with `Invalid OTP code`; that FAILED activity
 * (which names the otpId) is what counts the attempt, since the handler's effects roll back.
 */
export async function consumeOtp(ctx: ActivityContext, otpId: string, code: string): Promise<OtpRow> {
  const otp = await lockOtp(ctx.tx, otpId)
  if (!otp || !(await isSelfOrAncestor(ctx.tx, otp.organization_id, ctx.organizationId))) {
    throw fieldError('NOT_FOUND', 'parameters.otpId', 'no such OTP in this organization')
  }
  if (otp.used_at !== null) throw new SigilError('OTP_EXPIRED', 'OTP has already been used')
  if (ctx.now >= otp.expires_at) throw new SigilError('OTP_EXPIRED', 'OTP has expired')
  if ((await countWrongAttempts(ctx.tx, otpId, INVALID_OTP_MESSAGE)) >= MAX_WRONG_ATTEMPTS) {
    throw new SigilError('OTP_EXPIRED', 'OTP is no longer valid: too many wrong codes')
  }
  const typed = normaliseOtpInput(code, otp.alphanumeric)
  if (!otpCodeMatches(otpHashKey(ctx.rt.keys.otpTarget.privateKey), otpId, typed, otp.code_hash)) {
    throw new SigilError('OTP_INVALID', INVALID_OTP_MESSAGE)
  }
  await markOtpUsed(ctx.tx, otpId, ctx.now)
  return otp
}
