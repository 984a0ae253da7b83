/** verify_otp, both versions sharing one path (wire-formats B4 verifyOtp). */
import { z } from 'zod'
import { ExpirationSeconds } from '../fields.js'
import { defineSubmit } from '../operation.js'

const VerifyOtpResult = z.object({ verificationToken: z.string() })

/** Verifies an encrypted OTP bundle: ACTIVITY_TYPE_VERIFY_OTP_V2 (OpenAPI, server SDKs). */
export const verifyOtp = defineSubmit({
  name: 'verify_otp',
  path: '/public/v1/submit/verify_otp',
  type: 'ACTIVITY_TYPE_VERIFY_OTP_V2',
  intentKey: 'verifyOtpIntentV2',
  resultKey: 'verifyOtpResult',
  parameters: z.object({
    otpId: z.string(),
    encryptedOtpBundle: z.string(),
    expirationSeconds: ExpirationSeconds.optional(),
  }),
  result: VerifyOtpResult,
})

/** The v1 form core sends: ACTIVITY_TYPE_VERIFY_OTP with a plain `otpCode`. */
export const verifyOtpV1 = defineSubmit({
  name: 'verify_otp_v1',
  path: '/public/v1/submit/verify_otp',
  type: 'ACTIVITY_TYPE_VERIFY_OTP',
  intentKey: 'verifyOtpIntent',
  resultKey: 'verifyOtpResult',
  parameters: z.object({
    otpId: z.string(),
    otpCode: z.string(),
    expirationSeconds: ExpirationSeconds.optional(),
    publicKey: z.string().optional(),
  }),
  result: VerifyOtpResult,
})
