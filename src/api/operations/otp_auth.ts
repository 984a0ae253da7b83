/** otp_auth (service-interface.md "Submit operations" 7; wire-formats B4). */
import { z } from 'zod'
import { ExpirationSeconds } from '../fields.js'
import { defineSubmit } from '../operation.js'

/** Exchanges an OTP code for an encrypted credential bundle: ACTIVITY_TYPE_OTP_AUTH. */
export const otpAuth = defineSubmit({
  name: 'otp_auth',
  path: '/public/v1/submit/otp_auth',
  type: 'ACTIVITY_TYPE_OTP_AUTH',
  intentKey: 'otpAuthIntent',
  resultKey: 'otpAuthResult',
  parameters: z.object({
    otpId: z.string(),
    otpCode: z.string(),
    targetPublicKey: z.string(),
    apiKeyName: z.string().optional(),
    expirationSeconds: ExpirationSeconds.optional(),
    invalidateExisting: z.boolean().optional(),
  }),
  result: z.object({
    userId: z.string(),
    apiKeyId: z.string().optional(),
    credentialBundle: z.string().optional(),
  }),
})
