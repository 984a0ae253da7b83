/** get_policy_evaluations (hosted OpenAPI v1GetPolicyEvaluationsRequest / Response). */
import { z } from 'zod'
import { OrganizationScoped, PolicyEvaluationRecord } from '../common.js'
import { defineQuery } from '../operation.js'

/** The recorded policy evaluations of an activity of the organization, oldest first. */
export const getPolicyEvaluations = defineQuery({
  name: 'get_policy_evaluations',
  path: '/public/v1/query/get_policy_evaluations',
  request: OrganizationScoped.extend({ activityId: z.string().min(1, { error: 'required' }) }),
  response: z.object({ policyEvaluations: z.array(PolicyEvaluationRecord) }),
})
