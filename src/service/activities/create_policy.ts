import type { z } from 'zod'
import type { createPolicyV3 } from '../../api/operations/create_policy.js'
import { insertPolicy } from '../store/policies.js'
import { assertPolicyRoom, policyFieldsOf } from './shared/policies.js'
import type { ActivityHandler } from './types.js'

/**
 * create_policy (hosted OpenAPI v1CreatePolicyIntentV3): parses `condition`, `consensus` and `time`
 * with the policy language, then stores the policy as written. Like every activity of a user who is
 * not a root quorum on their own, it runs only once the root quorum has approved it (the engine).
 *
 * @throws INVALID_ARGUMENT when parameters.condition, parameters.consensus or parameters.time does not parse or names an unknown field (shared/policies.ts)
 * @throws FAILED_PRECONDITION when the organization already holds MAX_POLICIES (100) policies
 */
export const handler: ActivityHandler<z.infer<typeof createPolicyV3.parameters>> = async (ctx, p) => {
  const fields = policyFieldsOf(p, 'parameters')
  await assertPolicyRoom(ctx.tx, ctx.organizationId, 1)
  const id = crypto.randomUUID()
  await insertPolicy(ctx.tx, { ...fields, id, orgId: ctx.organizationId, now: ctx.now })
  return { policyId: id }
}
