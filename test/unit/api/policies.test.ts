/**
 * The policy operations' parameters: create_policy V3, create_policies, update_policy
 * V1/V2, delete_policy, delete_policies. Expressions are strings here (the handler parses them);
 * each invalid field is named.
 */
import { describe, expect, it } from 'vitest'
import { MAX_POLICIES, MAX_POLICY_NAME, MAX_POLICY_NOTES } from '../../../src/api/limits.js'
import { createPolicies } from '../../../src/api/operations/create_policies.js'
import { createPolicyV3 } from '../../../src/api/operations/create_policy.js'
import { deletePolicies } from '../../../src/api/operations/delete_policies.js'
import { deletePolicy } from '../../../src/api/operations/delete_policy.js'
import { updatePolicyV1, updatePolicyV2 } from '../../../src/api/operations/update_policy.js'
import { parseOrThrow } from '../../../src/api/validation.js'
import { failure } from './fixtures.js'

const fields = (e: { fieldViolations: ReadonlyArray<{ field: string }> }) => e.fieldViolations.map((v) => v.field)
const POLICY = { policyName: 'p', effect: 'EFFECT_ALLOW', condition: "activity.type == 'X'", consensus: '', notes: '' }

describe('create_policy V3', () => {
  it('accepts the hosted intent, with or without its optional expressions and notes', () => {
    expect(parseOrThrow(createPolicyV3.parameters, POLICY, 'parameters')).toMatchObject(POLICY)
    expect(parseOrThrow(createPolicyV3.parameters, { policyName: 'p', effect: 'EFFECT_DENY' }, 'parameters')).toEqual({
      policyName: 'p',
      effect: 'EFFECT_DENY',
    })
  })

  it('names each invalid field', () => {
    expect(fields(failure(createPolicyV3.parameters, { ...POLICY, effect: 'EFFECT_MAYBE' }))).toEqual(['parameters.effect'])
    expect(fields(failure(createPolicyV3.parameters, { ...POLICY, policyName: '' }))).toEqual(['parameters.policyName'])
    expect(fields(failure(createPolicyV3.parameters, { ...POLICY, policyName: 'x'.repeat(MAX_POLICY_NAME + 1) }))).toEqual([
      'parameters.policyName',
    ])
    expect(fields(failure(createPolicyV3.parameters, { ...POLICY, notes: 'x'.repeat(MAX_POLICY_NOTES + 1) }))).toEqual(['parameters.notes'])
    expect(fields(failure(createPolicyV3.parameters, { ...POLICY, condition: 1 }))).toEqual(['parameters.condition'])
    expect(fields(failure(createPolicyV3.parameters, { ...POLICY, consensus: null }))).toEqual(['parameters.consensus'])
  })
})

describe('create_policies, update_policy, delete_policy, delete_policies', () => {
  it('bounds and names arrays and their elements', () => {
    expect(fields(failure(createPolicies.parameters, { policies: [] }))).toEqual(['parameters.policies'])
    expect(fields(failure(createPolicies.parameters, { policies: Array(MAX_POLICIES + 1).fill(POLICY) }))).toEqual(['parameters.policies'])
    expect(fields(failure(createPolicies.parameters, { policies: [POLICY, { ...POLICY, effect: 'X' }] }))).toEqual([
      'parameters.policies[1].effect',
    ])
    expect(fields(failure(deletePolicies.parameters, { policyIds: [] }))).toEqual(['parameters.policyIds'])
    expect(fields(failure(deletePolicies.parameters, { policyIds: ['a', ''] }))).toEqual(['parameters.policyIds[1]'])
    expect(fields(failure(deletePolicy.parameters, {}))).toEqual(['parameters.policyId'])
  })

  it('update_policy: every field but policyId is optional; V2 adds time', () => {
    expect(parseOrThrow(updatePolicyV1.parameters, { policyId: 'p' }, 'parameters')).toEqual({ policyId: 'p' })
    expect(parseOrThrow(updatePolicyV2.parameters, { policyId: 'p', time: '' }, 'parameters')).toEqual({ policyId: 'p', time: '' })
    expect(fields(failure(updatePolicyV2.parameters, { policyId: 'p', policyEffect: 'ALLOW' }))).toEqual(['parameters.policyEffect'])
    expect(fields(failure(updatePolicyV1.parameters, { policyName: 'x' }))).toEqual(['parameters.policyId'])
  })
})
