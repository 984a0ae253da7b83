/**
 * The relay's OTP routes (wire-formats B6 "Auth proxy"): `/v1/otp_init` and `/v1/otp_init_v2`
 * send a code, `/v1/otp_verify` and `/v1/otp_verify_v2` turn it into a verification token,
 * `/v1/otp_auth` opens (or first makes) the contact's account for a key the client chose.
 */
import { z } from 'zod'
import { OtpType } from '../enums.js'

/** `/v1/otp_init` and `/v1/otp_init_v2` request. */
export const OtpInitRequest = z.object({
  otpType: OtpType,
  contact: z.string().min(1, { error: 'required' }),
  emailCustomization: z.object({ templateId: z.string().optional() }).optional(),
})
/** `/v1/otp_init` response. */
export const OtpInitResponse = z.object({ otpId: z.string().min(1).max(256) })
/** `/v1/otp_init_v2` response: the target bundle is the service's signed OTP encryption key. */
export const OtpInitV2Response = z.object({ otpId: z.string().min(1).max(256), otpEncryptionTargetBundle: z.string().min(1).max(8192) })

/** `/v1/otp_verify` request: the code in clear. */
export const OtpVerifyRequest = z.object({ otpId: z.string(), otpCode: z.string(), publicKey: z.string().optional() })
/** `/v1/otp_verify_v2` request: the code HPKE-encrypted to the target bundle, with the key it binds the token to. */
export const OtpVerifyV2Request = z.object({ otpId: z.string(), encryptedOtpBundle: z.string() })
/** `/v1/otp_verify` and `/v1/otp_verify_v2` response. */
export const OtpVerifyResponse = z.object({ verificationToken: z.string().min(1).max(8192) })

/** `/v1/otp_auth` request. */
export const OtpAuthRequest = z.object({ otpId: z.string(), otpCode: z.string(), targetPublicKey: z.string() })
/** `/v1/otp_auth` response: the credential bundle is encrypted to `targetPublicKey`. */
export const OtpAuthResponse = z.object({
  organizationId: z.string(),
  userId: z.string(),
  apiKeyId: z.string(),
  credentialBundle: z.string(),
})
