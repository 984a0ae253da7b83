/** init_otp (wire-formats B4 initOtp). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'
import { InitOtpFields, InitOtpFieldsV1 } from '../params.js'

/** Sends an OTP for the verify_otp flow: ACTIVITY_TYPE_INIT_OTP_V3. */
export const initOtp = defineSubmit({
  name: 'init_otp',
  path: '/public/v1/submit/init_otp',
  type: 'ACTIVITY_TYPE_INIT_OTP_V3',
  intentKey: 'initOtpIntentV3',
  resultKey: 'initOtpResultV2',
  parameters: InitOtpFields,
  result: z.object({ otpId: z.string(), otpEncryptionTargetBundle: z.string() }),
})

/** ACTIVITY_TYPE_INIT_OTP_V2, on the same path: V3's fields; result `initOtpResult` (no target bundle). */
export const initOtpV2 = defineSubmit({
  name: 'init_otp_v2',
  path: '/public/v1/submit/init_otp',
  type: 'ACTIVITY_TYPE_INIT_OTP_V2',
  intentKey: 'initOtpIntentV2',
  resultKey: 'initOtpResult',
  parameters: InitOtpFields,
  result: z.object({ otpId: z.string() }),
})

/** ACTIVITY_TYPE_INIT_OTP (V1), on the same path: no `appName` (the email customization may carry one); result `initOtpResult`. */
export const initOtpV1 = defineSubmit({
  name: 'init_otp_v1',
  path: '/public/v1/submit/init_otp',
  type: 'ACTIVITY_TYPE_INIT_OTP',
  intentKey: 'initOtpIntent',
  resultKey: 'initOtpResult',
  parameters: InitOtpFieldsV1,
  result: z.object({ otpId: z.string() }),
})
