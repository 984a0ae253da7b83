import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { getMfaPolicy } from '../../api/operations/get_mfa_policy.js'
import { getMfaPolicy as readMfaPolicy, type MfaPolicyRow, stepsOf } from '../store/mfaPolicies.js'
import { toTimestamp } from '../store/time.js'
import type { QueryHandler } from './types.js'

/** A stored MFA policy as the hosted v1MfaPolicy. */
export function mfaPolicyToWire(r: MfaPolicyRow) {
  return {
    mfaPolicyId: r.id,
    mfaPolicyName: r.name,
    condition: r.condition,
    requiredAuthenticationMethods: stepsOf(r.required_methods),
    order: Number(r.eval_order),
    ...(r.notes !== null ? { notes: r.notes } : {}),
    createdAt: toTimestamp(Number(r.created_at)),
    updatedAt: toTimestamp(Number(r.updated_at)),
  }
}

/**
 * get_mfa_policy: one of a user's MFA policies.
 *
 * @throws NOT_FOUND when the user has no MFA policy mfaPolicyId
 */
export const handler: QueryHandler<z.output<typeof getMfaPolicy.request>> = async ({ sql, organizationId }, request) => {
  const row = await readMfaPolicy(sql, organizationId, request.userId, request.mfaPolicyId)
  if (!row) throw fieldError('NOT_FOUND', 'mfaPolicyId', 'the user has no MFA policy with this id')
  return { mfaPolicy: mfaPolicyToWire(row) }
}
