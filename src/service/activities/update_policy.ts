import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { updatePolicyV2 } from '../../api/operations/update_policy.js'
import { lockPolicy, updatePolicy } from '../store/policies.js'
import { checkExpression } from '../policy/definition.js'
import type { ActivityContext } from '../activityContext.js'
import type { ActivityHandler } from './types.js'

type UpdateParams = z.infer<typeof updatePolicyV2.parameters>

/**
 * update_policy (hosted OpenAPI v1UpdatePolicyIntent, V2 adds `time`): the fields given replace
 * the stored ones (an expression given as '' clears it), the others stay; new expressions are
 * parsed first.
 *
 * @throws NOT_FOUND when parameters.policyId names no policy of the organization
 * @throws INVALID_ARGUMENT when parameters.policyCondition, parameters.policyConsensus or parameters.time does not parse or names an unknown field (policy/definition.ts)
 */
async function update(ctx: ActivityContext, p: UpdateParams) {
  checkExpression(p.policyCondition, 'condition', 'parameters.policyCondition')
  checkExpression(p.policyConsensus, 'consensus', 'parameters.policyConsensus')
  checkExpression(p.time, 'time', 'parameters.time')
  const row = await lockPolicy(ctx.tx, ctx.organizationId, p.policyId)
  if (!row) throw fieldError('NOT_FOUND', 'parameters.policyId', 'no such policy in the organization')
  const time = p.time === undefined ? row.time_expr : p.time.trim() === '' ? null : p.time
  await updatePolicy(ctx.tx, ctx.organizationId, row.id, {
    name: p.policyName ?? row.name,
    effect: p.policyEffect ?? row.effect,
    condition: p.policyCondition ?? row.condition,
    consensus: p.policyConsensus ?? row.consensus,
    time,
    notes: p.policyNotes ?? row.notes,
    now: ctx.now,
  })
  return { policyId: row.id }
}

/**
 * ACTIVITY_TYPE_UPDATE_POLICY.
 *
 * @throws NOT_FOUND when parameters.policyId names no policy of the organization
 * @throws INVALID_ARGUMENT when parameters.policyCondition or parameters.policyConsensus does not parse (policy/definition.ts)
 */
export const handlerV1: ActivityHandler<Omit<UpdateParams, 'time'>> = (ctx, p) => update(ctx, p)

/**
 * ACTIVITY_TYPE_UPDATE_POLICY_V2.
 *
 * @throws NOT_FOUND when parameters.policyId names no policy of the organization
 * @throws INVALID_ARGUMENT when parameters.policyCondition, parameters.policyConsensus or parameters.time does not parse (policy/definition.ts)
 */
export const handlerV2: ActivityHandler<UpdateParams> = (ctx, p) => update(ctx, p)
