/** get_active_policies (hosted OpenAPI v1GetActivePoliciesRequest / Response). */
import { z } from 'zod'
import { OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'

/** v1ActivePolicyStatus: whether one policy's time window holds at `evaluatedAtMs`. */
export const ActivePolicyStatus = z.object({
  organizationId: z.string(),
  policyId: z.string(),
  active: z.boolean(),
  timeExpr: z.string().optional(),
  error: z.string().optional(),
})

/** For each policy of the organization, whether it is active now (a policy without `time` always is). */
export const getActivePolicies = defineQuery({
  name: 'get_active_policies',
  path: '/public/v1/query/get_active_policies',
  request: OrganizationScoped,
  response: z.object({ statuses: z.array(ActivePolicyStatus), evaluatedAtMs: z.string() }),
})
