import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { deletePolicy } from '../../api/operations/delete_policy.js'
import { deletePolicy as deleteRow } from '../store/policies.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_policy (hosted OpenAPI v1DeletePolicyIntent): removes one of the organization's policies.
 *
 * @throws NOT_FOUND when parameters.policyId names no policy of the organization
 */
export const handler: ActivityHandler<z.infer<typeof deletePolicy.parameters>> = async (ctx, p) => {
  if (!(await deleteRow(ctx.tx, ctx.organizationId, p.policyId))) {
    throw fieldError('NOT_FOUND', 'parameters.policyId', 'no such policy in the organization')
  }
  return { policyId: p.policyId }
}
