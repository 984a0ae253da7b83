/** update_mfa_policy (hosted OpenAPI v1UpdateMfaPolicyIntent / Result). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'
import { MfaCondition, MfaNotes, MfaOrder, MfaPolicyName, MfaUserId, RequiredAuthenticationMethods } from './create_mfa_policy.js'

/** A MFA policy id in a request. */
export const MfaPolicyId = z.string({ error: 'required' }).min(1, { error: 'required' }).max(128, { error: 'must be an MFA policy id' })

/** Changes the fields given of one of a user's MFA policies: ACTIVITY_TYPE_UPDATE_MFA_POLICY. */
export const updateMfaPolicy = defineSubmit({
  name: 'update_mfa_policy',
  path: '/public/v1/submit/update_mfa_policy',
  type: 'ACTIVITY_TYPE_UPDATE_MFA_POLICY',
  intentKey: 'updateMfaPolicyIntent',
  resultKey: 'updateMfaPolicyResult',
  parameters: z.object({
    userId: MfaUserId,
    mfaPolicyId: MfaPolicyId,
    mfaPolicyName: MfaPolicyName.optional(),
    condition: MfaCondition.optional(),
    requiredAuthenticationMethods: RequiredAuthenticationMethods.optional(),
    order: MfaOrder.optional(),
    notes: MfaNotes.optional(),
  }),
  result: z.object({ mfaPolicyId: z.string() }),
})
