import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { deleteMfaPolicy } from '../../api/operations/delete_mfa_policy.js'
import { deleteMfaPolicy as storeDelete } from '../store/mfaPolicies.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_mfa_policy: removes one of a user's MFA policies; the user's next activities no longer wait
 * for it (one already waiting keeps waiting for the steps it was submitted under).
 *
 * @throws NOT_FOUND when the user has no MFA policy parameters.mfaPolicyId
 */
export const handler: ActivityHandler<z.infer<typeof deleteMfaPolicy.parameters>> = async (ctx, p) => {
  if (!(await storeDelete(ctx.tx, ctx.organizationId, p.userId, p.mfaPolicyId))) {
    throw fieldError('NOT_FOUND', 'parameters.mfaPolicyId', 'the user has no MFA policy with this id')
  }
  return { mfaPolicyId: p.mfaPolicyId }
}
