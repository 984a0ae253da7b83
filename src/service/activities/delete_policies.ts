import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { deletePolicies } from '../../api/operations/delete_policies.js'
import { deletePolicy as deleteRow } from '../store/policies.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_policies (hosted OpenAPI v1DeletePoliciesIntent): removes every policy named, or none
 * (the activity's transaction) when one of them is not the organization's.
 *
 * @throws NOT_FOUND when parameters.policyIds[i] names no policy of the organization (or names one twice)
 */
export const handler: ActivityHandler<z.infer<typeof deletePolicies.parameters>> = async (ctx, p) => {
  for (const [i, id] of p.policyIds.entries()) {
    if (!(await deleteRow(ctx.tx, ctx.organizationId, id))) {
      throw fieldError('NOT_FOUND', `parameters.policyIds[${i}]`, 'no such policy in the organization')
    }
  }
  return { policyIds: p.policyIds }
}
