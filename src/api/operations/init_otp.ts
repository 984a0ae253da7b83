/** init_otp (wire-formats B4 initOtp). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'
import { InitOtpFields } from '../params.js'

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
