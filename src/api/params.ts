/**
 * Parameter pieces shared by several operations: email/SMS customization and the
 * OTP-init field set used by init_otp_auth and init_otp (service-interface.md
 * init_otp_auth, init_user_email_recovery; wire-formats B4 initOtp).
 */
import { z } from 'zod'
import { OtpType } from './enums.js'
import { OtpExpirationSeconds, OtpLength } from './fields.js'

/** OTP email customization (init_otp_auth, init_otp). */
export const EmailCustomization = z.object({
  logoUrl: z.string().optional(),
  magicLinkTemplate: z.string().optional(),
  templateVariables: z.string().optional(),
  templateId: z.string().optional(),
})
export type EmailCustomization = z.infer<typeof EmailCustomization>

/** Recovery email customization with `appName` (init_user_email_recovery). */
export const EmailAuthCustomization = EmailCustomization.extend({ appName: z.string().optional() })
export type EmailAuthCustomization = z.infer<typeof EmailAuthCustomization>

/** SMS customization `{template}`. */
export const SmsCustomization = z.object({ template: z.string().optional() })
export type SmsCustomization = z.infer<typeof SmsCustomization>

/**
 * The OTP-init parameters (init_otp_auth V3 and init_otp V3 share them): `expirationSeconds`
 * at most 600, `otpLength` 6..9 (service-interface.md "Errors" 3; wire-formats B7).
 */
export const InitOtpFields = z.object({
  otpType: OtpType,
  contact: z.string().min(1, { error: 'required' }),
  appName: z.string().min(1, { error: 'required' }),
  otpLength: OtpLength.optional(),
  emailCustomization: EmailCustomization.optional(),
  smsCustomization: SmsCustomization.optional(),
  userIdentifier: z.string().optional(),
  sendFromEmailAddress: z.string().optional(),
  alphanumeric: z.boolean().optional(),
  sendFromEmailSenderName: z.string().optional(),
  expirationSeconds: OtpExpirationSeconds.optional(),
  replyToEmailAddress: z.string().optional(),
})
export type InitOtpFields = z.infer<typeof InitOtpFields>

/**
 * The OTP-init parameters of the older versions (init_otp V1, and init_otp_auth V1/V2 less some
 * fields): no top-level `appName`; the email customization carries an optional one.
 */
export const InitOtpFieldsV1 = InitOtpFields.omit({ appName: true, emailCustomization: true }).extend({
  emailCustomization: EmailAuthCustomization.optional(),
})
export type InitOtpFieldsV1 = z.infer<typeof InitOtpFieldsV1>
