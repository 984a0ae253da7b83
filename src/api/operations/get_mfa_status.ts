/** get_mfa_status (hosted OpenAPI v1GetMfaStatusRequest / Response). */
import { z } from 'zod'
import { defineQuery } from '../operation.js'
import { MfaUserId } from './create_mfa_policy.js'
import { AuthenticationMethod, RequiredAuthenticationMethod } from './get_mfa_policy.js'

/** What an MFA policy asks of an activity, and what was proven so far (hosted v1MfaStatus). */
export const MfaStatus = z.object({
  mfaPolicyId: z.string(),
  userId: z.string(),
  satisfied: z.boolean(),
  satisfiedMethods: z.array(AuthenticationMethod),
  requiredMethods: z.array(RequiredAuthenticationMethod),
})

/** The MFA status of an activity (optionally one user's) → `{mfaStatuses}`; none when no MFA policy covered it. */
export const getMfaStatus = defineQuery({
  name: 'get_mfa_status',
  path: '/public/v1/query/get_mfa_status',
  request: z.object({
    organizationId: z.string().min(1, { error: 'required' }),
    activityId: z.string({ error: 'required' }).min(1, { error: 'required' }).max(128, { error: 'must be an activity id' }),
    userId: MfaUserId.optional(),
  }),
  response: z.object({ mfaStatuses: z.array(MfaStatus) }),
})
