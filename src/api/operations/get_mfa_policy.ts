/** get_mfa_policy (hosted OpenAPI v1GetMfaPolicyRequest / Response). */
import { z } from 'zod'
import { Timestamp } from '../common.js'
import { defineQuery } from '../operation.js'
import { AuthenticationType, MfaUserId } from './create_mfa_policy.js'
import { MfaPolicyId } from './update_mfa_policy.js'

/** One method of a step as served (hosted v1AuthenticationMethod). */
export const AuthenticationMethod = z.object({ type: AuthenticationType, id: z.string().optional() })

/** One step as served (hosted v1RequiredAuthenticationMethod). */
export const RequiredAuthenticationMethod = z.object({ any: z.array(AuthenticationMethod) })

/** An MFA policy as the hosted v1MfaPolicy. */
export const MfaPolicy = z.object({
  mfaPolicyId: z.string(),
  mfaPolicyName: z.string(),
  condition: z.string(),
  requiredAuthenticationMethods: z.array(RequiredAuthenticationMethod),
  order: z.number(),
  notes: z.string().optional(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})

/** One of a user's MFA policies → `{mfaPolicy}`. */
export const getMfaPolicy = defineQuery({
  name: 'get_mfa_policy',
  path: '/public/v1/query/get_mfa_policy',
  request: z.object({ organizationId: z.string().min(1, { error: 'required' }), userId: MfaUserId, mfaPolicyId: MfaPolicyId }),
  response: z.object({ mfaPolicy: MfaPolicy }),
})
