import type { InitOtpFields, InitOtpFieldsV1 } from '../../api/params.js'
import { createTargetBundle } from '../../crypto/signedBundle.js'
import { initiateOtp } from '../otp/initiate.js'
import { otpFieldsOf } from './shared/olderVersions.js'
import type { ActivityHandler } from './types.js'

/**
 * init_otp V3 (wire-formats B4): like init_otp_auth, plus the signed `otpEncryptionTargetBundle`
 * announcing the service's OTP HPKE key, signed by the verifier ("TLS fetcher") key (B2).
 *
 * @throws INVALID_ARGUMENT when parameters.contact is not an email address or E.164 phone number for parameters.otpType, parameters.expirationSeconds is not between 1 and 600, or an email or SMS customization field is invalid
 * @throws OTP_RATE_LIMITED when too many OTPs were initiated for the contact (or, for SMS, the userIdentifier) within the rate-limit window
 * @throws PERMISSION_DENIED when a sub-organization's own credential submits it for that sub-organization (its parent starts its OTPs)
 * @throws FAILED_PRECONDITION when no delivery is configured for the OTP type (SMTP or SMS webhook) and the dev mailbox is off
 */
export const handler: ActivityHandler<InitOtpFields> = async (ctx, p) => {
  const { otpId } = await initiateOtp(ctx, p, 'init_otp')
  const otpEncryptionTargetBundle = createTargetBundle({
    targetPublicKey: ctx.rt.keys.otpTarget.publicKey,
    signerPrivateKey: ctx.rt.keys.verifier.privateKey,
  })
  return { otpId, otpEncryptionTargetBundle }
}

/** init_otp V2: V3's fields, the result `{otpId}` only (no target bundle: V2 clients send codes in the clear). */
export const handlerV2: ActivityHandler<InitOtpFields> = (ctx, p) => initiateOtp(ctx, p, 'init_otp')

/** init_otp V1: as V2, the app name taken from the email customization (else Sigil's). */
export const handlerV1: ActivityHandler<InitOtpFieldsV1> = (ctx, p) => initiateOtp(ctx, otpFieldsOf(p), 'init_otp')
