/** init_otp_auth (service-interface.md "Submit operations" 6, "Limits"). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'
import { InitOtpFields, InitOtpFieldsV1 } from '../params.js'

/** Sends an OTP by email or SMS: ACTIVITY_TYPE_INIT_OTP_AUTH_V3 (result key carries V2). */
export const initOtpAuth = defineSubmit({
  name: 'init_otp_auth',
  path: '/public/v1/submit/init_otp_auth',
  type: 'ACTIVITY_TYPE_INIT_OTP_AUTH_V3',
  intentKey: 'initOtpAuthIntentV3',
  resultKey: 'initOtpAuthResultV2',
  parameters: InitOtpFields,
  result: z.object({ otpId: z.string() }),
})

/**
 * ACTIVITY_TYPE_INIT_OTP_AUTH_V2, on the same path: no `appName` (the email customization may carry
 * one) and no `expirationSeconds`; result `initOtpAuthResultV2`.
 */
export const initOtpAuthV2 = defineSubmit({
  name: 'init_otp_auth_v2',
  path: '/public/v1/submit/init_otp_auth',
  type: 'ACTIVITY_TYPE_INIT_OTP_AUTH_V2',
  intentKey: 'initOtpAuthIntentV2',
  resultKey: 'initOtpAuthResultV2',
  parameters: InitOtpFieldsV1.omit({ expirationSeconds: true }),
  result: z.object({ otpId: z.string() }),
})

/** ACTIVITY_TYPE_INIT_OTP_AUTH (V1), on the same path: V2 without `otpLength` and `alphanumeric`; result `initOtpAuthResult`. */
export const initOtpAuthV1 = defineSubmit({
  name: 'init_otp_auth_v1',
  path: '/public/v1/submit/init_otp_auth',
  type: 'ACTIVITY_TYPE_INIT_OTP_AUTH',
  intentKey: 'initOtpAuthIntent',
  resultKey: 'initOtpAuthResult',
  parameters: InitOtpFieldsV1.omit({ expirationSeconds: true, otpLength: true, alphanumeric: true }),
  result: z.object({ otpId: z.string() }),
})
