import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { getMfaStatus } from '../../api/operations/get_mfa_status.js'
import { type MfaProof, progress } from '../policy/mfa.js'
import { getActivity } from '../store/activities.js'
import { getActivityMfa, provenOf, stepsOf } from '../store/mfaPolicies.js'
import type { QueryHandler } from './types.js'

/**
 * get_mfa_status: what the MFA policy that applied to an activity asks, and which steps its user has
 * proven (none when no MFA policy applied, or for another userId).
 *
 * @throws NOT_FOUND when the organization has no activity activityId
 */
export const handler: QueryHandler<z.output<typeof getMfaStatus.request>> = async ({ sql, organizationId }, request) => {
  const activity = await getActivity(sql, request.activityId)
  if (!activity || (activity.organization_id !== organizationId && activity.quorum_org_id !== organizationId))
    throw fieldError('NOT_FOUND', 'activityId', 'the organization has no activity with this id')
  const held = await getActivityMfa(sql, activity.id)
  if (!held || (request.userId !== undefined && request.userId !== held.user_id)) return { mfaStatuses: [] }
  const steps = stepsOf(held.required_methods)
  const { satisfied, done } = progress(steps, provenOf(held.proven) as MfaProof[])
  return {
    mfaStatuses: [
      { mfaPolicyId: held.mfa_policy_id, userId: held.user_id, satisfied: done, satisfiedMethods: satisfied, requiredMethods: steps },
    ],
  }
}
