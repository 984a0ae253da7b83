/** delete_mfa_policy (hosted OpenAPI v1DeleteMfaPolicyIntent / Result). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'
import { MfaUserId } from './create_mfa_policy.js'
import { MfaPolicyId } from './update_mfa_policy.js'

/** Deletes one of a user's MFA policies: ACTIVITY_TYPE_DELETE_MFA_POLICY. */
export const deleteMfaPolicy = defineSubmit({
  name: 'delete_mfa_policy',
  path: '/public/v1/submit/delete_mfa_policy',
  type: 'ACTIVITY_TYPE_DELETE_MFA_POLICY',
  intentKey: 'deleteMfaPolicyIntent',
  resultKey: 'deleteMfaPolicyResult',
  parameters: z.object({ userId: MfaUserId, mfaPolicyId: MfaPolicyId }),
  result: z.object({ mfaPolicyId: z.string() }),
})
