/** delete_policies (hosted OpenAPI v1DeletePoliciesIntent). */
import { z } from 'zod'
import { boundedArray } from '../fields.js'
import { MAX_POLICIES } from '../limits.js'
import { defineSubmit } from '../operation.js'
import { PolicyId } from './delete_policy.js'

/** Deletes several policies, all or none: ACTIVITY_TYPE_DELETE_POLICIES. */
export const deletePolicies = defineSubmit({
  name: 'delete_policies',
  path: '/public/v1/submit/delete_policies',
  type: 'ACTIVITY_TYPE_DELETE_POLICIES',
  intentKey: 'deletePoliciesIntent',
  resultKey: 'deletePoliciesResult',
  parameters: z.object({ policyIds: boundedArray(PolicyId, MAX_POLICIES).min(1, { error: 'required' }) }),
  result: z.object({ policyIds: z.array(z.string()) }),
})
