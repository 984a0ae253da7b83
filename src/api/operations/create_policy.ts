/**
 * create_policy (hosted OpenAPI v1CreatePolicyIntentV3): a policy in the hosted policy language.
 * The expressions are parsed by the handler (the policy module names the field and position of an
 * error); here they are only strings.
 */
import { z } from 'zod'
import { PolicyEffect } from '../enums.js'
import { MAX_POLICY_NAME, MAX_POLICY_NOTES } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** A policy name: required, bounded. */
export const PolicyName = z
  .string()
  .min(1, { error: 'required' })
  .max(MAX_POLICY_NAME, { error: `at most ${MAX_POLICY_NAME} characters` })

/** A policy's notes (optional on the wire here; stored as '' when absent). */
export const PolicyNotes = z.string().max(MAX_POLICY_NOTES, { error: `at most ${MAX_POLICY_NOTES} characters` })

/** v1CreatePolicyIntentV3: `condition`, `consensus` and `time` are expressions, absent or blank = always holds. */
export const CreatePolicyIntentV3 = z.object({
  policyName: PolicyName,
  effect: PolicyEffect,
  condition: z.string().optional(),
  consensus: z.string().optional(),
  notes: PolicyNotes.optional(),
  time: z.string().optional(),
})

/** Creates one policy: ACTIVITY_TYPE_CREATE_POLICY_V3. */
export const createPolicyV3 = defineSubmit({
  name: 'create_policy',
  path: '/public/v1/submit/create_policy',
  type: 'ACTIVITY_TYPE_CREATE_POLICY_V3',
  intentKey: 'createPolicyIntentV3',
  resultKey: 'createPolicyResult',
  parameters: CreatePolicyIntentV3,
  result: z.object({ policyId: z.string() }),
})
