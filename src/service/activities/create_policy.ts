import type { z } from 'zod'
import type { createPolicyV1, createPolicyV2, createPolicyV3 } from '../../api/operations/create_policy.js'
import { insertPolicy, type PolicyFields } from '../store/policies.js'
import { assertPolicyRoom, policyFieldsOf } from '../policy/definition.js'
import { selectorsToCondition } from '../policy/selectors.js'
import type { ActivityContext } from '../activityContext.js'
import type { ActivityHandler } from './types.js'

/**
 * create_policy (hosted OpenAPI v1CreatePolicyIntentV3): parses `condition`, `consensus` and `time`
 * with the policy language, then stores the policy as written. Like every activity of a user who is
 * not a root quorum on their own, it runs only once the root quorum has approved it (the engine).
 *
 * @throws INVALID_ARGUMENT when parameters.condition, parameters.consensus or parameters.time does not parse or names an unknown field (policy/definition.ts)
 * @throws FAILED_PRECONDITION when the organization already holds MAX_POLICIES (100) policies
 */
export const handler: ActivityHandler<z.infer<typeof createPolicyV3.parameters>> = (ctx, p) => store(ctx, policyFieldsOf(p, 'parameters'))

async function store(ctx: ActivityContext, fields: PolicyFields) {
  await assertPolicyRoom(ctx.tx, ctx.organizationId, 1)
  const id = crypto.randomUUID()
  await insertPolicy(ctx.tx, { ...fields, id, orgId: ctx.organizationId, now: ctx.now })
  return { policyId: id }
}

/** The stored fields of a V1 / V2 intent: its selectors become the condition, with no consensus. */
function fromSelectors(p: z.infer<typeof createPolicyV1.parameters> | z.infer<typeof createPolicyV2.parameters>): PolicyFields {
  return {
    name: p.policyName,
    effect: p.effect,
    condition: selectorsToCondition(p.selectors, 'parameters'),
    consensus: '',
    time: null,
    notes: p.notes ?? '',
  }
}

/**
 * ACTIVITY_TYPE_CREATE_POLICY (v1CreatePolicyIntent): `selectors` of `{subject, operator, target}`
 * become the policy's condition (policy/selectors.ts).
 *
 * @throws INVALID_ARGUMENT when a selector's clause does not parse (parameters.selectors[i])
 * @throws FAILED_PRECONDITION when the organization already holds MAX_POLICIES (100) policies
 */
export const handlerV1: ActivityHandler<z.infer<typeof createPolicyV1.parameters>> = (ctx, p) => store(ctx, fromSelectors(p))

/**
 * ACTIVITY_TYPE_CREATE_POLICY_V2 (v1CreatePolicyIntentV2): `selectors` of `{subject, operator, targets}`.
 *
 * @throws INVALID_ARGUMENT when a selector's clause does not parse (parameters.selectors[i])
 * @throws FAILED_PRECONDITION when the organization already holds MAX_POLICIES (100) policies
 */
export const handlerV2: ActivityHandler<z.infer<typeof createPolicyV2.parameters>> = (ctx, p) => store(ctx, fromSelectors(p))
