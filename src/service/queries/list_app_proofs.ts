import { fieldError } from '../../api/errors.js'
import { getActivity } from '../store/activities.js'
import type { QueryHandler } from './types.js'

/**
 * list_app_proofs: `{organizationId, activityId}` → `{appProofs}` of that activity, in the layout
 * `@turnkey/crypto` `verifyAppProofSignature` accepts.
 *
 * @throws NOT_FOUND when activityId names no activity of the organization
 */
export const handler: QueryHandler<{ activityId: string }> = async ({ sql, organizationId }, req) => {
  const a = await getActivity(sql, req.activityId)
  if (!a || a.organization_id !== organizationId) throw fieldError('NOT_FOUND', 'activityId', 'no such activity in the organization')
  return { appProofs: a.app_proofs }
}
