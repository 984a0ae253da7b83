import { fieldError } from '../../api/errors.js'
import { getPolicy, policyToWire } from '../store/policies.js'
import type { QueryHandler } from './types.js'

/**
 * get_policy: `{organizationId, policyId}` → `{policy}`.
 *
 * @throws NOT_FOUND when policyId names no policy of the organization
 */
export const handler: QueryHandler<{ policyId: string }> = async ({ sql, organizationId }, req) => {
  const row = await getPolicy(sql, organizationId, req.policyId)
  if (!row) throw fieldError('NOT_FOUND', 'policyId', 'no such policy in the organization')
  return { policy: policyToWire(row) }
}
