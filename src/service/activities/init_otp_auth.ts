import type { InitOtpFields, InitOtpFieldsV1 } from '../../api/params.js'
import { initiateOtp } from '../otp/initiate.js'
import { otpFieldsOf } from './shared/olderVersions.js'
import type { ActivityHandler } from './types.js'

/**
 * init_otp_auth V3 (service-interface §6): sends a code by email or SMS → `{otpId}`.
 *
 * @throws INVALID_ARGUMENT when parameters.contact is not an email address or E.164 phone number for parameters.otpType, parameters.expirationSeconds is not between 1 and 600, or an email or SMS customization field is invalid
 * @throws OTP_RATE_LIMITED when too many OTPs were initiated for the contact (or, for SMS, the userIdentifier) within the rate-limit window
 * @throws PERMISSION_DENIED when a sub-organization's own credential submits it for that sub-organization (its parent starts its OTPs)
 * @throws FAILED_PRECONDITION when no delivery is configured for the OTP type (SMTP or SMS webhook) and the dev mailbox is off
 */
export const handler: ActivityHandler<InitOtpFields> = (ctx, p) => initiateOtp(ctx, p, 'init_otp_auth')

/** init_otp_auth V1 and V2: as V3, the app name taken from the email customization (else Sigil's). */
export const handlerV1: ActivityHandler<InitOtpFieldsV1> = (ctx, p) => initiateOtp(ctx, otpFieldsOf(p), 'init_otp_auth')

/** init_otp_auth V2: the fields of V1. */
export const handlerV2 = handlerV1
