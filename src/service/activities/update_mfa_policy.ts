import type { z } from 'zod'
import { fieldError, invalidField } from '../../api/errors.js'
import type { updateMfaPolicy } from '../../api/operations/update_mfa_policy.js'
import { parsePolicy } from '../policy/index.js'
import { updateMfaPolicy as storeUpdate } from '../store/mfaPolicies.js'
import { storedSteps } from './create_mfa_policy.js'
import type { ActivityHandler } from './types.js'

/**
 * update_mfa_policy: changes the fields given of one of a user's MFA policies. Activities already
 * waiting keep the steps they were submitted under.
 *
 * @throws INVALID_ARGUMENT when parameters.condition is not policy language
 * @throws NOT_FOUND when the user has no MFA policy parameters.mfaPolicyId
 */
export const handler: ActivityHandler<z.infer<typeof updateMfaPolicy.parameters>> = async (ctx, p) => {
  if (p.condition !== undefined) {
    const parsed = parsePolicy({ condition: p.condition })
    if (!parsed.ok) throw invalidField('parameters.condition', `is not policy language: ${parsed.error.description}`)
  }
  const found = await storeUpdate(ctx.tx, {
    id: p.mfaPolicyId,
    organizationId: ctx.organizationId,
    userId: p.userId,
    name: p.mfaPolicyName,
    condition: p.condition,
    steps: p.requiredAuthenticationMethods ? storedSteps(p.requiredAuthenticationMethods) : undefined,
    order: p.order,
    notes: p.notes,
    now: ctx.now,
  })
  if (!found) throw fieldError('NOT_FOUND', 'parameters.mfaPolicyId', 'the user has no MFA policy with this id')
  return { mfaPolicyId: p.mfaPolicyId }
}
