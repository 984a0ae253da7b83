/**
 * What the policy handlers share: parsing a policy's expressions at create/update time, an error
 * naming the field and position, and the organization's policy limit.
 */
import type { z } from 'zod'
import { fieldError, SigilError } from '../../api/errors.js'
import { MAX_POLICIES } from '../../api/limits.js'
import type { CreatePolicyIntentV3 } from '../../api/operations/create_policy.js'
import { type ExpressionKind, type PolicyField, tryParseExpression } from './index.js'
import { countPoliciesLocked, type PolicyFields } from '../store/policies.js'
import type { Sql } from '../store/sql.js'

/**
 * Parses one expression of a policy; `field` is its wire name (`parameters.condition`,
 * `parameters.policies[2].consensus`, `parameters.policyCondition` …).
 *
 * @throws INVALID_ARGUMENT when it does not parse or names an unknown field (the message gives line and column)
 */
export function checkExpression(source: string | undefined, kind: ExpressionKind, field: string): void {
  const r = tryParseExpression(source, kind, field as PolicyField)
  if (!r.ok) throw fieldError('INVALID_ARGUMENT', r.error.field, r.error.description)
}

/**
 * The stored fields of a create_policy / create_policies intent, its expressions parsed first.
 * `prefix` names the intent in errors (`parameters`, `parameters.policies[i]`).
 *
 * @throws INVALID_ARGUMENT when the condition, consensus or time expression does not parse
 */
export function policyFieldsOf(p: z.output<typeof CreatePolicyIntentV3>, prefix: string): PolicyFields {
  checkExpression(p.condition, 'condition', `${prefix}.condition`)
  checkExpression(p.consensus, 'consensus', `${prefix}.consensus`)
  checkExpression(p.time, 'time', `${prefix}.time`)
  return {
    name: p.policyName,
    effect: p.effect,
    condition: p.condition ?? '',
    consensus: p.consensus ?? '',
    time: p.time ?? null,
    notes: p.notes ?? '',
  }
}

/**
 * Refuses `adding` more policies when the organization would then hold more than MAX_POLICIES
 * (hosted resource limits: 100 per organization). Locks the organization's row.
 *
 * @throws FAILED_PRECONDITION when the organization would hold more than MAX_POLICIES policies
 */
export async function assertPolicyRoom(tx: Sql, orgId: string, adding: number): Promise<void> {
  const held = await countPoliciesLocked(tx, orgId)
  if (held + adding > MAX_POLICIES) {
    throw new SigilError(
      'FAILED_PRECONDITION',
      `the organization holds ${held} policies and may hold at most ${MAX_POLICIES}; delete some first`,
    )
  }
}
