/**
 * create_policy (hosted OpenAPI v1CreatePolicyIntentV3): a policy in the hosted policy language.
 * The expressions are parsed by the handler (the policy module names the field and position of an
 * error); here they are only strings. The same path takes the older intents, v1CreatePolicyIntent
 * (ACTIVITY_TYPE_CREATE_POLICY, `selectors` of `{subject, operator, target}`) and
 * v1CreatePolicyIntentV2 (ACTIVITY_TYPE_CREATE_POLICY_V2, `{subject, operator, targets}`): the
 * handler translates their selectors into a condition (src/service/policy/selectors.ts).
 */
import { z } from 'zod'
import { PolicyEffect, PolicyOperator } from '../enums.js'
import { MAX_POLICY_NAME, MAX_POLICY_NOTES, MAX_POLICY_SELECTOR_TEXT, MAX_POLICY_SELECTORS } from '../limits.js'
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

const SelectorText = z
  .string()
  .min(1, { error: 'required' })
  .max(MAX_POLICY_SELECTOR_TEXT, { error: `at most ${MAX_POLICY_SELECTOR_TEXT} characters` })

/** v1Selector: `subject` is an expression of the policy language, `target` a value. */
export const PolicySelector = z.object({
  subject: SelectorText,
  operator: PolicyOperator,
  target: z.string().max(MAX_POLICY_SELECTOR_TEXT),
})

/** v1SelectorV2: as v1Selector with a list of values. */
export const PolicySelectorV2 = z.object({
  subject: SelectorText,
  operator: PolicyOperator,
  targets: z
    .array(z.string().max(MAX_POLICY_SELECTOR_TEXT))
    .max(MAX_POLICY_SELECTORS, { error: `at most ${MAX_POLICY_SELECTORS} targets` }),
})

const selectorsOf = <S extends z.ZodType>(selector: S) =>
  z.array(selector).max(MAX_POLICY_SELECTORS, { error: `at most ${MAX_POLICY_SELECTORS} selectors` })

/** ACTIVITY_TYPE_CREATE_POLICY (v1CreatePolicyIntent). */
export const createPolicyV1 = defineSubmit({
  name: 'create_policy_v1',
  path: '/public/v1/submit/create_policy',
  type: 'ACTIVITY_TYPE_CREATE_POLICY',
  intentKey: 'createPolicyIntent',
  resultKey: 'createPolicyResult',
  parameters: z.object({
    policyName: PolicyName,
    selectors: selectorsOf(PolicySelector),
    effect: PolicyEffect,
    notes: PolicyNotes.optional(),
  }),
  result: z.object({ policyId: z.string() }),
})

/** ACTIVITY_TYPE_CREATE_POLICY_V2 (v1CreatePolicyIntentV2). */
export const createPolicyV2 = defineSubmit({
  name: 'create_policy_v2',
  path: '/public/v1/submit/create_policy',
  type: 'ACTIVITY_TYPE_CREATE_POLICY_V2',
  intentKey: 'createPolicyIntentV2',
  resultKey: 'createPolicyResult',
  parameters: z.object({
    policyName: PolicyName,
    selectors: selectorsOf(PolicySelectorV2),
    effect: PolicyEffect,
    notes: PolicyNotes.optional(),
  }),
  result: z.object({ policyId: z.string() }),
})
