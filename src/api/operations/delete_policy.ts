/** delete_policy (hosted OpenAPI v1DeletePolicyIntent). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** A policy id in a request. */
export const PolicyId = z.string().min(1, { error: 'required' }).max(128)

/** Deletes one policy of the organization: ACTIVITY_TYPE_DELETE_POLICY. */
export const deletePolicy = defineSubmit({
  name: 'delete_policy',
  path: '/public/v1/submit/delete_policy',
  type: 'ACTIVITY_TYPE_DELETE_POLICY',
  intentKey: 'deletePolicyIntent',
  resultKey: 'deletePolicyResult',
  parameters: z.object({ policyId: PolicyId }),
  result: z.object({ policyId: z.string() }),
})
