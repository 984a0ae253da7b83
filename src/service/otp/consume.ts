import { fieldError, invalidField, SigilError } from '../../api/errors.js'
import type { ActivityContext } from '../activityContext.js'
import { isSelfOrAncestor } from '../store/organizations.js'
import { claimOtpAttempt as claimAttemptRow, getOtp, lockOtp, markOtpUsed, type OtpPath, type OtpRow } from '../store/otps.js'
import type { Sql } from '../store/sql.js'
import { normaliseOtpInput, otpCodeMatches, otpHashKey } from './code.js'

/** SDK-recognised wrong-code message (wire-formats B5 → INVALID_OTP_CODE). */
export const INVALID_OTP_MESSAGE = 'Invalid OTP code'
/** Codes checked per OTP: exactly this many, whatever the concurrency, so a code cannot be guessed by racing. */
export const MAX_WRONG_ATTEMPTS = 5
const TOO_MANY = 'OTP is no longer valid: too many wrong codes'

/**
 * The activity types that spend an OTP and the paths whose OTPs each may spend: an OTP
 * started with init_otp (its code comes back HPKE-encrypted) is spent by verify_otp; one started
 * with init_otp_auth by otp_auth or verify_otp V1 (the relay checks a new contact's code with it).
 */
export const OTP_SPENDERS: ReadonlyMap<string, readonly OtpPath[]> = new Map([
  ['ACTIVITY_TYPE_OTP_AUTH', ['init_otp_auth']],
  ['ACTIVITY_TYPE_VERIFY_OTP', ['init_otp', 'init_otp_auth']],
  ['ACTIVITY_TYPE_VERIFY_OTP_V2', ['init_otp']],
])

/**
 * Claims one attempt of the OTP an activity names, before the activity runs: the engine
 * calls this outside the activity's transaction (or, for an activity run by consensus, before its
 * savepoint), so the count survives a wrong code's rollback, and the single UPDATE makes concurrent
 * attempts count exactly. Only the OTP's organization or an ancestor of it spends (claims) it.
 * Nothing to do for other types, or an OTP the handler will refuse for another reason.
 *
 * @throws OTP_EXPIRED when the OTP has had its MAX_WRONG_ATTEMPTS attempts
 */
export async function claimOtpAttempt(
  sql: Sql,
  a: { type: string; submitterOrgId: string; parameters: Record<string, unknown>; now: number },
): Promise<void> {
  const paths = OTP_SPENDERS.get(a.type)
  const otpId = a.parameters.otpId
  if (!paths || typeof otpId !== 'string') return
  const otp = await getOtp(sql, otpId)
  if (!otp || !paths.includes(otp.path) || otp.used_at !== null || a.now >= otp.expires_at) return
  if (!(await isSelfOrAncestor(sql, a.submitterOrgId, otp.organization_id))) return
  if (!(await claimAttemptRow(sql, otpId, paths, a.now, MAX_WRONG_ATTEMPTS))) {
    const now = await getOtp(sql, otpId)
    // Spent or expired meanwhile: the handler says so.
    if (now && now.used_at === null && a.now < now.expires_at) throw new SigilError('OTP_EXPIRED', TOO_MANY)
  }
}

/**
 * The OTP `otpId` names, row-locked for the rest of the transaction, if this activity may spend it
 * (so an OTP proves a contact only to the flow and organization that started it): it must exist for this organization (or an ancestor) and the submitter's
 * organization (or an ancestor of it: a sub-organization does not spend its parent's OTPs), have
 * been started on a path this activity spends, be unused, unexpired and have had this attempt
 * claimed (claimOtpAttempt, at most 5). Every spender checks this before anything else it is given
 * (a bundle, a key), so an id of no OTP, whatever its size, is the same 404 naming parameters.otpId.
 */
export async function spendableOtp(ctx: ActivityContext, otpId: string): Promise<OtpRow> {
  const otp = await lockOtp(ctx.tx, otpId)
  if (
    !otp ||
    !(await isSelfOrAncestor(ctx.tx, otp.organization_id, ctx.organizationId)) ||
    !(await isSelfOrAncestor(ctx.tx, ctx.submitter.organizationId, otp.organization_id))
  ) {
    throw fieldError('NOT_FOUND', 'parameters.otpId', 'no such OTP in this organization')
  }
  if (!OTP_SPENDERS.get(ctx.type)?.includes(otp.path)) {
    throw invalidField('parameters.otpId', `was started with ${otp.path}, whose OTPs this activity does not spend`)
  }
  if (otp.used_at !== null) throw new SigilError('OTP_EXPIRED', 'OTP has already been used')
  if (ctx.now >= otp.expires_at) throw new SigilError('OTP_EXPIRED', 'OTP has expired')
  if (otp.attempts > MAX_WRONG_ATTEMPTS) throw new SigilError('OTP_EXPIRED', TOO_MANY)
  // Every check of a code is counted before it runs; a path that skipped the claim fails closed.
  if (otp.attempts < 1) throw new SigilError('INTERNAL', 'OTP attempt was not counted')
  return otp
}

/** Checks a code against an OTP found by {@link spendableOtp}, in constant time, and spends it. */
export async function spendOtp(ctx: ActivityContext, otp: OtpRow, code: string): Promise<OtpRow> {
  const typed = normaliseOtpInput(code, otp.alphanumeric)
  if (!otpCodeMatches(otpHashKey(ctx.rt.keys.otpTarget.privateKey), otp.id, typed, otp.code_hash)) {
    throw new SigilError('OTP_INVALID', INVALID_OTP_MESSAGE)
  }
  await markOtpUsed(ctx.tx, otp.id, ctx.now)
  return otp
}

/** Checks a code against the OTP `otpId` names and spends it: {@link spendableOtp}, then {@link spendOtp}. */
export async function consumeOtp(ctx: ActivityContext, otpId: string, code: string): Promise<OtpRow> {
  return spendOtp(ctx, await spendableOtp(ctx, otpId), code)
}
