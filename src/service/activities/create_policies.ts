import type { z } from 'zod'
import type { createPolicies } from '../../api/operations/create_policies.js'
import { insertPolicy } from '../store/policies.js'
import { assertPolicyRoom, policyFieldsOf } from '../policy/definition.js'
import type { ActivityHandler } from './types.js'

/**
 * create_policies (hosted OpenAPI v1CreatePoliciesIntent): every policy's expressions are parsed
 * before any is stored; all are created or none (the activity's transaction).
 *
 * @throws INVALID_ARGUMENT when parameters.policies[i].condition, .consensus or .time does not parse or names an unknown field (policy/definition.ts)
 * @throws FAILED_PRECONDITION when the organization would then hold more than MAX_POLICIES (100) policies
 */
export const handler: ActivityHandler<z.infer<typeof createPolicies.parameters>> = async (ctx, p) => {
  const all = p.policies.map((policy, i) => policyFieldsOf(policy, `parameters.policies[${i}]`))
  await assertPolicyRoom(ctx.tx, ctx.organizationId, all.length)
  const policyIds: string[] = []
  for (const fields of all) {
    const id = crypto.randomUUID()
    await insertPolicy(ctx.tx, { ...fields, id, orgId: ctx.organizationId, now: ctx.now })
    policyIds.push(id)
  }
  return { policyIds }
}
