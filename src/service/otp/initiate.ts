import type { InitOtpFields } from '../../api/params.js'
import { SigilError, invalidField } from '../../api/errors.js'
import type { ActivityContext } from '../activityContext.js'
import { enqueueMessage } from '../mail/outbox.js'
import { checkEmailOptions, otpEmail, otpSms } from '../mail/templates.js'
import { requireParentInitiated } from './parentInitiated.js'
import { countOtpsForContact, countOtpsForIdentifier, insertOtp, type OtpPath } from '../store/otps.js'
import { generateOtpCode, hashOtpCode, otpHashKey } from './code.js'
import { normaliseContact } from '../../api/contact.js'

/** SDK-recognised message of the OTP rate limit (wire-formats B5 → MAX_OTP_INITIATED_ERROR). */
export const MAX_OTPS_MESSAGE = 'Max number of OTPs have been initiated'
/** OTP defaults (wire-formats B7). */
export const OTP_DEFAULTS = { length: 9, alphanumeric: true, expirationSeconds: 300, maxExpirationSeconds: 600 } as const

/**
 * init_otp_auth / init_otp: checks, rate limits per contact and per userIdentifier,
 * a CSPRNG code stored only as an HMAC, and the email or SMS queued in the same transaction.
 * A sub-organization's OTPs are started by its parent; the OTP records the path it was started
 * for (`path`: init_otp's are spent by verify_otp, init_otp_auth's by otp_auth or verify_otp V1).
 */
export async function initiateOtp(ctx: ActivityContext, p: InitOtpFields, path: OtpPath): Promise<{ otpId: string }> {
  await requireParentInitiated(ctx, 'an OTP')
  const contact = normaliseContact(p.otpType, p.contact, 'parameters.contact')
  const expirationSeconds = p.expirationSeconds === undefined ? OTP_DEFAULTS.expirationSeconds : Number(p.expirationSeconds)
  if (!(expirationSeconds > 0) || expirationSeconds > OTP_DEFAULTS.maxExpirationSeconds) {
    throw invalidField('parameters.expirationSeconds', `must be between 1 and ${OTP_DEFAULTS.maxExpirationSeconds}`)
  }
  const length = p.otpLength ?? OTP_DEFAULTS.length
  const alphanumeric = p.alphanumeric ?? OTP_DEFAULTS.alphanumeric
  if (p.otpType === 'OTP_TYPE_EMAIL') {
    checkEmailOptions({ ...p, ...p.emailCustomization }, 'parameters', 'parameters.emailCustomization', ctx.rt.config)
  }

  const { max, windowMs } = ctx.rt.config.otpRateLimit
  const since = ctx.now - windowMs
  if ((await countOtpsForContact(ctx.tx, contact, since)) >= max) {
    throw new SigilError('OTP_RATE_LIMITED', MAX_OTPS_MESSAGE)
  }
  if (p.otpType === 'OTP_TYPE_SMS' && p.userIdentifier && (await countOtpsForIdentifier(ctx.tx, p.userIdentifier, since)) >= max) {
    throw new SigilError('OTP_RATE_LIMITED', MAX_OTPS_MESSAGE)
  }

  const otpId = crypto.randomUUID()
  const code = generateOtpCode(length, alphanumeric)
  await insertOtp(ctx.tx, {
    id: otpId,
    organization_id: ctx.organizationId,
    otp_type: p.otpType,
    path,
    contact,
    user_identifier: p.userIdentifier ?? null,
    code_hash: hashOtpCode(otpHashKey(ctx.rt.keys.otpTarget.privateKey), otpId, code),
    code_length: length,
    alphanumeric,
    expires_at: ctx.now + expirationSeconds * 1000,
    created_at: ctx.now,
  })
  const message =
    p.otpType === 'OTP_TYPE_EMAIL'
      ? otpEmail({ ...p, ...p.emailCustomization }, contact, code, expirationSeconds, ctx.rt.config.mailFrom)
      : otpSms(p.appName, p.smsCustomization?.template, contact, code, p.appName)
  await enqueueMessage(ctx.tx, ctx.rt, { ...message, organization_id: ctx.organizationId }, ctx.now)
  ctx.rt.log.info('otp initiated', { otpId, otpType: p.otpType, organizationId: ctx.organizationId })
  return { otpId }
}
