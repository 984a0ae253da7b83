import { fieldError } from '../../api/errors.js'
import type { QueryHandler } from './types.js'
import { activityToWire, getActivity } from '../store/activities.js'
import { isDeletedChildOf } from '../store/organizations.js'

/**
 * get_activity: `{organizationId, activityId}` → `{activity}`. The activities of a deleted
 * sub-organization (delete_sub_organization, the deleting activity included) stay readable with its
 * parent's id: the sub-organization's own id answers 404 once it is deleted.
 *
 * @throws NOT_FOUND when activityId names no activity of the organization (or of a deleted sub-organization of it)
 */
export const handler: QueryHandler<{ activityId: string }> = async ({ sql, organizationId, principal }, req) => {
  const a = await getActivity(sql, req.activityId)
  if (!a || (a.organization_id !== organizationId && !(await isDeletedChildOf(sql, a.organization_id, organizationId)))) {
    throw fieldError('NOT_FOUND', 'activityId', 'no such activity in the organization')
  }
  return { activity: await activityToWire(sql, a, principal.userId, 'query') }
}
