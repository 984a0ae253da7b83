/**
 * update_policy (hosted OpenAPI v1UpdatePolicyIntent, v1UpdatePolicyIntentV2): changes the fields
 * given, keeps the others. The expressions are parsed by the handler.
 */
import { z } from 'zod'
import { PolicyEffect } from '../enums.js'
import { defineSubmit } from '../operation.js'
import { PolicyName, PolicyNotes } from './create_policy.js'

const UpdatePolicyIntent = z.object({
  policyId: z.string().min(1, { error: 'required' }).max(128),
  policyName: PolicyName.optional(),
  policyEffect: PolicyEffect.optional(),
  policyCondition: z.string().optional(),
  policyConsensus: z.string().optional(),
  policyNotes: PolicyNotes.optional(),
})

/** ACTIVITY_TYPE_UPDATE_POLICY (no `time`). */
export const updatePolicyV1 = defineSubmit({
  name: 'update_policy_v1',
  path: '/public/v1/submit/update_policy',
  type: 'ACTIVITY_TYPE_UPDATE_POLICY',
  intentKey: 'updatePolicyIntent',
  resultKey: 'updatePolicyResult',
  parameters: UpdatePolicyIntent,
  result: z.object({ policyId: z.string() }),
})

/** ACTIVITY_TYPE_UPDATE_POLICY_V2 (adds `time`). */
export const updatePolicyV2 = defineSubmit({
  name: 'update_policy',
  path: '/public/v1/submit/update_policy',
  type: 'ACTIVITY_TYPE_UPDATE_POLICY_V2',
  intentKey: 'updatePolicyIntentV2',
  resultKey: 'updatePolicyResultV2',
  parameters: UpdatePolicyIntent.extend({ time: z.string().optional() }),
  result: z.object({ policyId: z.string() }),
})
