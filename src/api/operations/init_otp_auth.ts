/** init_otp_auth (service-interface.md "Submit operations" 6, "Limits"). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'
import { InitOtpFields } from '../params.js'

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
