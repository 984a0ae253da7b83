/** init_user_email_recovery (service-interface.md "Submit operations" 9). */
import { z } from 'zod'
import { ExpirationSeconds } from '../fields.js'
import { defineSubmit } from '../operation.js'
import { EmailAuthCustomization } from '../params.js'

const Parameters = z.object({
  email: z.string().min(1, { error: 'required' }),
  targetPublicKey: z.string(),
  expirationSeconds: ExpirationSeconds.optional(),
  emailCustomization: EmailAuthCustomization.optional(),
  sendFromEmailAddress: z.string().optional(),
  sendFromEmailSenderName: z.string().optional(),
  replyToEmailAddress: z.string().optional(),
})

/** Emails a recovery bundle: ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2. */
export const initUserEmailRecovery = defineSubmit({
  name: 'init_user_email_recovery',
  path: '/public/v1/submit/init_user_email_recovery',
  type: 'ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2',
  intentKey: 'initUserEmailRecoveryIntentV2',
  resultKey: 'initUserEmailRecoveryResult',
  parameters: Parameters,
  result: z.object({ userId: z.string() }),
})

/**
 * ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY (V1), on the same path: V2's fields, the email
 * customization (and its `appName`) optional — the default email is sent without one.
 */
export const initUserEmailRecoveryV1 = defineSubmit({
  name: 'init_user_email_recovery_v1',
  path: '/public/v1/submit/init_user_email_recovery',
  type: 'ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY',
  intentKey: 'initUserEmailRecoveryIntent',
  resultKey: 'initUserEmailRecoveryResult',
  parameters: Parameters,
  result: z.object({ userId: z.string() }),
})
