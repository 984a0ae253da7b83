/** get_mfa_policies (hosted OpenAPI v1GetMfaPoliciesRequest / Response). */
import { z } from 'zod'
import { defineQuery } from '../operation.js'
import { MfaUserId } from './create_mfa_policy.js'
import { MfaPolicy } from './get_mfa_policy.js'

/** A user's MFA policies in evaluation order → `{mfaPolicies}`. */
export const getMfaPolicies = defineQuery({
  name: 'get_mfa_policies',
  path: '/public/v1/query/get_mfa_policies',
  request: z.object({ organizationId: z.string().min(1, { error: 'required' }), userId: MfaUserId }),
  response: z.object({ mfaPolicies: z.array(MfaPolicy) }),
})
