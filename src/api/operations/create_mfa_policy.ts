/** create_mfa_policy (hosted OpenAPI v1CreateMfaPolicyIntent / Result; docs "Multi-factor authentication"). */
import { z } from 'zod'
import { MAX_MFA_POLICY_CONDITION, MAX_MFA_POLICY_NAME, MAX_MFA_POLICY_NOTES, MAX_MFA_POLICY_STEPS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** The ways a user can prove themselves in an MFA step (hosted v1AuthenticationType). */
export const AuthenticationType = z.enum(
  [
    'AUTHENTICATION_TYPE_EMAIL_OTP',
    'AUTHENTICATION_TYPE_SMS_OTP',
    'AUTHENTICATION_TYPE_PASSKEY',
    'AUTHENTICATION_TYPE_API_KEY',
    'AUTHENTICATION_TYPE_OAUTH',
    'AUTHENTICATION_TYPE_SESSION',
  ],
  { error: 'must be an AUTHENTICATION_TYPE_* value' },
)

/** One acceptable method in a request (hosted v1AuthenticationMethodParams; `invitationIds` is accepted and unused). */
export const AuthenticationMethodParams = z.object({
  type: AuthenticationType,
  id: z.string().min(1, { error: 'must not be empty' }).max(128, { error: 'must be a credential id' }).optional(),
  invitationIds: z.array(z.string().max(128)).max(16).optional(),
})

/** One step: any of these methods satisfies it (hosted v1RequiredAuthenticationMethodParams). */
export const RequiredAuthenticationMethodParams = z.object({
  any: z.array(AuthenticationMethodParams).min(1, { error: 'needs at least one method' }).max(8, { error: 'at most 8 methods' }),
})

/** The ordered steps of a policy. */
export const RequiredAuthenticationMethods = z
  .array(RequiredAuthenticationMethodParams)
  .min(1, { error: 'needs at least one step' })
  .max(MAX_MFA_POLICY_STEPS, { error: `at most ${MAX_MFA_POLICY_STEPS} steps` })

export const MfaPolicyName = z
  .string({ error: 'required' })
  .trim()
  .min(1, { error: 'required' })
  .max(MAX_MFA_POLICY_NAME, { error: `at most ${MAX_MFA_POLICY_NAME} characters` })
export const MfaCondition = z
  .string({ error: 'required' })
  .min(1, { error: 'required: policy language, e.g. "true" or "activity.action == \'SIGN\'"' })
  .max(MAX_MFA_POLICY_CONDITION, { error: `at most ${MAX_MFA_POLICY_CONDITION} characters` })
export const MfaOrder = z
  .number({ error: 'must be a whole number from 0' })
  .int({ error: 'must be a whole number from 0' })
  .min(0, { error: 'must be a whole number from 0' })
  .max(1_000_000, { error: 'at most 1000000' })
export const MfaNotes = z.string().max(MAX_MFA_POLICY_NOTES, { error: `at most ${MAX_MFA_POLICY_NOTES} characters` })
export const MfaUserId = z.string({ error: 'required' }).min(1, { error: 'required' }).max(128, { error: 'must be a user id' })

/**
 * Creates an MFA policy for a user: ACTIVITY_TYPE_CREATE_MFA_POLICY. When `condition` (policy
 * language) holds for an activity the user submits, the activity waits
 * (ACTIVITY_STATUS_AUTHENTICATORS_NEEDED) until each step of `requiredAuthenticationMethods` is
 * proven, in order, by a distinct credential of the user stamping approve_activity.
 */
export const createMfaPolicy = defineSubmit({
  name: 'create_mfa_policy',
  path: '/public/v1/submit/create_mfa_policy',
  type: 'ACTIVITY_TYPE_CREATE_MFA_POLICY',
  intentKey: 'createMfaPolicyIntent',
  resultKey: 'createMfaPolicyResult',
  parameters: z.object({
    userId: MfaUserId,
    mfaPolicyName: MfaPolicyName,
    condition: MfaCondition,
    requiredAuthenticationMethods: RequiredAuthenticationMethods,
    order: MfaOrder,
    notes: MfaNotes.optional(),
  }),
  result: z.object({ mfaPolicyId: z.string() }),
})
