import type { z } from 'zod'
import { fieldError, invalidField } from '../../api/errors.js'
import type { createMfaPolicy } from '../../api/operations/create_mfa_policy.js'
import { parsePolicy } from '../policy/index.js'
import { insertMfaPolicy, type StoredStep } from '../store/mfaPolicies.js'
import { getUser } from '../store/users.js'
import type { ActivityHandler } from './types.js'

/** The steps as stored: each method's type and, when named, its credential id. */
export function storedSteps(steps: ReadonlyArray<{ any: ReadonlyArray<{ type: string; id?: string | undefined }> }>): StoredStep[] {
  return steps.map((s) => ({ any: s.any.map((m) => ({ type: m.type, ...(m.id !== undefined ? { id: m.id } : {}) })) }))
}

/**
 * create_mfa_policy: stores an MFA policy for a user of the organization. From then on an activity
 * that user submits, when `condition` holds for it, waits (ACTIVITY_STATUS_AUTHENTICATORS_NEEDED)
 * until each step is proven (src/service/policy/mfa.ts).
 *
 * @throws INVALID_ARGUMENT when parameters.condition is not policy language
 * @throws NOT_FOUND when the organization has no user parameters.userId
 */
export const handler: ActivityHandler<z.infer<typeof createMfaPolicy.parameters>> = async (ctx, p) => {
  const parsed = parsePolicy({ condition: p.condition })
  if (!parsed.ok) throw invalidField('parameters.condition', `is not policy language: ${parsed.error.description}`)
  if (!(await getUser(ctx.tx, ctx.organizationId, p.userId))) {
    throw fieldError('NOT_FOUND', 'parameters.userId', 'the organization has no user with this id')
  }
  const mfaPolicyId = crypto.randomUUID()
  await insertMfaPolicy(ctx.tx, {
    id: mfaPolicyId,
    organizationId: ctx.organizationId,
    userId: p.userId,
    name: p.mfaPolicyName,
    condition: p.condition,
    steps: storedSteps(p.requiredAuthenticationMethods),
    order: p.order,
    notes: p.notes ?? null,
    now: ctx.now,
  })
  return { mfaPolicyId }
}
