import { fieldError } from '../../api/errors.js'
import type { QueryHandler } from './types.js'
import { activityToWire, getActivity } from '../store/activities.js'

/**
 * get_activity: `{organizationId, activityId}` → `{activity}`.
 *
 * @throws NOT_FOUND when activityId names no activity of the organization
 */
export const handler: QueryHandler<{ activityId: string }> = async ({ sql, organizationId, principal }, req) => {
  const a = await getActivity(sql, req.activityId)
  if (!a || a.organization_id !== organizationId) {
    throw fieldError('NOT_FOUND', 'activityId', 'no such activity in the organization')
  }
  return { activity: await activityToWire(sql, a, principal.userId, 'query') }
}
