/** get_policy (hosted OpenAPI v1GetPolicyRequest / Response). */
import { z } from 'zod'
import { OrganizationScoped, Policy } from '../common.js'
import { defineQuery } from '../operation.js'

/** Reads one policy of the organization. */
export const getPolicy = defineQuery({
  name: 'get_policy',
  path: '/public/v1/query/get_policy',
  request: OrganizationScoped.extend({ policyId: z.string().min(1, { error: 'required' }) }),
  response: z.object({ policy: Policy }),
})
