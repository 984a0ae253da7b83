/** create_policies (hosted OpenAPI v1CreatePoliciesIntent): several v1CreatePolicyIntentV3, all or none. */
import { z } from 'zod'
import { boundedArray } from '../fields.js'
import { MAX_POLICIES } from '../limits.js'
import { defineSubmit } from '../operation.js'
import { CreatePolicyIntentV3 } from './create_policy.js'

/** Creates several policies, all or none: ACTIVITY_TYPE_CREATE_POLICIES. */
export const createPolicies = defineSubmit({
  name: 'create_policies',
  path: '/public/v1/submit/create_policies',
  type: 'ACTIVITY_TYPE_CREATE_POLICIES',
  intentKey: 'createPoliciesIntent',
  resultKey: 'createPoliciesResult',
  parameters: z.object({ policies: boundedArray(CreatePolicyIntentV3, MAX_POLICIES).min(1, { error: 'required' }) }),
  result: z.object({ policyIds: z.array(z.string()) }),
})
