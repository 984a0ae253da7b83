import { fieldError } from '../../api/errors.js'
import { getActivity } from '../store/activities.js'
import { listPolicyEvaluations, policyEvaluationToWire } from '../store/policies.js'
import type { QueryHandler } from './types.js'

/**
 * get_policy_evaluations: `{organizationId, activityId}` → `{policyEvaluations}`, the recorded
 * evaluation of each vote of the activity, oldest first (none for an activity of the root quorum).
 *
 * @throws NOT_FOUND when activityId names no activity of the organization
 */
export const handler: QueryHandler<{ activityId: string }> = async ({ sql, organizationId }, req) => {
  const activity = await getActivity(sql, req.activityId)
  if (!activity || activity.organization_id !== organizationId) {
    throw fieldError('NOT_FOUND', 'activityId', 'no such activity in the organization')
  }
  return { policyEvaluations: (await listPolicyEvaluations(sql, activity.id)).map(policyEvaluationToWire) }
}
