/** email_auth, three versions sharing one path (hosted OpenAPI v1EmailAuthIntent, V2, V3). */
import { z } from 'zod'
import { ExpirationSeconds } from '../fields.js'
import { defineSubmit } from '../operation.js'
import { EmailAuthCustomization } from '../params.js'

const EmailAuthFields = {
  email: z.string().min(1, { error: 'required' }),
  targetPublicKey: z.string().min(1, { error: 'required' }),
  apiKeyName: z.string().optional(),
  expirationSeconds: ExpirationSeconds.optional(),
  invalidateExisting: z.boolean().optional(),
  sendFromEmailAddress: z.string().optional(),
  sendFromEmailSenderName: z.string().optional(),
  replyToEmailAddress: z.string().optional(),
}
const EmailAuthResult = z.object({ userId: z.string(), apiKeyId: z.string() })

/** What the current client sends: ACTIVITY_TYPE_EMAIL_AUTH_V3 (emailCustomization with appName required). */
export const emailAuth = defineSubmit({
  name: 'email_auth',
  path: '/public/v1/submit/email_auth',
  type: 'ACTIVITY_TYPE_EMAIL_AUTH_V3',
  intentKey: 'emailAuthIntentV3',
  resultKey: 'emailAuthResult',
  parameters: z.object({
    ...EmailAuthFields,
    emailCustomization: EmailAuthCustomization.extend({ appName: z.string().min(1, { error: 'required' }) }),
  }),
  result: EmailAuthResult,
})

/** ACTIVITY_TYPE_EMAIL_AUTH_V2 (emailCustomization optional). */
export const emailAuthV2 = defineSubmit({
  name: 'email_auth_v2',
  path: '/public/v1/submit/email_auth',
  type: 'ACTIVITY_TYPE_EMAIL_AUTH_V2',
  intentKey: 'emailAuthIntentV2',
  resultKey: 'emailAuthResult',
  parameters: z.object({ ...EmailAuthFields, emailCustomization: EmailAuthCustomization.optional() }),
  result: EmailAuthResult,
})

/** ACTIVITY_TYPE_EMAIL_AUTH (emailCustomization optional). */
export const emailAuthV1 = defineSubmit({
  name: 'email_auth_v1',
  path: '/public/v1/submit/email_auth',
  type: 'ACTIVITY_TYPE_EMAIL_AUTH',
  intentKey: 'emailAuthIntent',
  resultKey: 'emailAuthResult',
  parameters: z.object({ ...EmailAuthFields, emailCustomization: EmailAuthCustomization.optional() }),
  result: EmailAuthResult,
})
