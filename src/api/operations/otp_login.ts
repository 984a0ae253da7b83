/** otp_login, both versions sharing one path (service-interface.md "Submit operations" 8; wire-formats B4). */
import { z } from 'zod'
import { ClientSignature } from '../common.js'
import { ExpirationSeconds } from '../fields.js'
import { defineSubmit } from '../operation.js'

const LoginFields = {
  verificationToken: z.string(),
  publicKey: z.string(),
  expirationSeconds: ExpirationSeconds.optional(),
  invalidateExisting: z.boolean().optional(),
  sessionProfileId: z.string().optional(),
}
const OtpLoginResult = z.object({ session: z.string() })

/** Logs in with a verification token: ACTIVITY_TYPE_OTP_LOGIN_V2 (clientSignature required). */
export const otpLogin = defineSubmit({
  name: 'otp_login',
  path: '/public/v1/submit/otp_login',
  type: 'ACTIVITY_TYPE_OTP_LOGIN_V2',
  intentKey: 'otpLoginIntentV2',
  resultKey: 'otpLoginResult',
  parameters: z.object({ ...LoginFields, clientSignature: ClientSignature }),
  result: OtpLoginResult,
})

/** The v1 form core sends: ACTIVITY_TYPE_OTP_LOGIN (clientSignature optional). */
export const otpLoginV1 = defineSubmit({
  name: 'otp_login_v1',
  path: '/public/v1/submit/otp_login',
  type: 'ACTIVITY_TYPE_OTP_LOGIN',
  intentKey: 'otpLoginIntent',
  resultKey: 'otpLoginResult',
  parameters: z.object({ ...LoginFields, clientSignature: ClientSignature.optional() }),
  result: OtpLoginResult,
})
