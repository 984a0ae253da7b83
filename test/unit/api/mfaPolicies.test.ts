/**
 * The MFA policy operations' parameters (create/update/delete_mfa_policy, get_mfa_policy/ies,
 * get_mfa_status): the hosted intents parse, each invalid field is named; and how proofs progress
 * through a policy's ordered steps (one credential, one step; a method of another type proves nothing).
 */
import { describe, expect, it } from 'vitest'
import { MAX_MFA_POLICY_NAME, MAX_MFA_POLICY_STEPS } from '../../../src/api/limits.js'
import { createMfaPolicy } from '../../../src/api/operations/create_mfa_policy.js'
import { deleteMfaPolicy } from '../../../src/api/operations/delete_mfa_policy.js'
import { getMfaStatus } from '../../../src/api/operations/get_mfa_status.js'
import { updateMfaPolicy } from '../../../src/api/operations/update_mfa_policy.js'
import { parseOrThrow } from '../../../src/api/validation.js'
import { progress } from '../../../src/service/policy/mfa.js'
import { failure } from './fixtures.js'

const fields = (e: { fieldViolations: ReadonlyArray<{ field: string }> }) => e.fieldViolations.map((v) => v.field)
const STEPS = [{ any: [{ type: 'AUTHENTICATION_TYPE_API_KEY', invitationIds: [] }] }, { any: [{ type: 'AUTHENTICATION_TYPE_PASSKEY' }] }]
const POLICY = { userId: 'u', mfaPolicyName: 'p', condition: 'true', requiredAuthenticationMethods: STEPS, order: 0 }

describe('create_mfa_policy', () => {
  it('accepts the hosted intent', () => {
    expect(parseOrThrow(createMfaPolicy.parameters, { ...POLICY, notes: 'n' }, 'parameters')).toMatchObject({ ...POLICY, notes: 'n' })
  })

  it('names each invalid field', () => {
    const bad = (over: Record<string, unknown>) => fields(failure(createMfaPolicy.parameters, { ...POLICY, ...over }))
    expect(bad({ userId: '' })).toEqual(['parameters.userId'])
    expect(bad({ mfaPolicyName: 'x'.repeat(MAX_MFA_POLICY_NAME + 1) })).toEqual(['parameters.mfaPolicyName'])
    expect(bad({ condition: '' })).toEqual(['parameters.condition'])
    expect(bad({ order: -1 })).toEqual(['parameters.order'])
    expect(bad({ order: 1.5 })).toEqual(['parameters.order'])
    expect(bad({ requiredAuthenticationMethods: [] })).toEqual(['parameters.requiredAuthenticationMethods'])
    expect(bad({ requiredAuthenticationMethods: Array(MAX_MFA_POLICY_STEPS + 1).fill(STEPS[1]) })).toEqual([
      'parameters.requiredAuthenticationMethods',
    ])
    expect(bad({ requiredAuthenticationMethods: [{ any: [] }] })).toEqual(['parameters.requiredAuthenticationMethods[0].any'])
    expect(bad({ requiredAuthenticationMethods: [{ any: [{ type: 'AUTHENTICATION_TYPE_TOTP' }] }] })).toEqual([
      'parameters.requiredAuthenticationMethods[0].any[0].type',
    ])
  })
})

describe('update_mfa_policy, delete_mfa_policy, get_mfa_status', () => {
  it('need the policy id; update changes only what it names', () => {
    expect(parseOrThrow(updateMfaPolicy.parameters, { userId: 'u', mfaPolicyId: 'm', order: 3 }, 'parameters')).toEqual({
      userId: 'u',
      mfaPolicyId: 'm',
      order: 3,
    })
    expect(fields(failure(updateMfaPolicy.parameters, { userId: 'u' }))).toEqual(['parameters.mfaPolicyId'])
    expect(fields(failure(deleteMfaPolicy.parameters, { userId: 'u', mfaPolicyId: '' }))).toEqual(['parameters.mfaPolicyId'])
    expect(fields(failure(getMfaStatus.request, { organizationId: 'o' }, ''))).toEqual(['activityId'])
  })
})

describe('MFA progress', () => {
  const steps = [{ any: [{ type: 'AUTHENTICATION_TYPE_API_KEY' }] }, { any: [{ type: 'AUTHENTICATION_TYPE_PASSKEY', id: 'pk1' }] }]
  const apiKey = (id: string) => ({ type: 'AUTHENTICATION_TYPE_API_KEY', id, credentialId: id })
  const passkey = (id: string) => ({ type: 'AUTHENTICATION_TYPE_PASSKEY', id, credentialId: id })

  it('proves steps in order, each with a credential of its type (and id when named)', () => {
    expect(progress(steps, [apiKey('a')])).toEqual({ satisfied: [{ type: 'AUTHENTICATION_TYPE_API_KEY', id: 'a' }], done: false })
    expect(progress(steps, [apiKey('a'), apiKey('b')]).done).toBe(false)
    expect(progress(steps, [apiKey('a'), passkey('other')]).done).toBe(false)
    expect(progress(steps, [apiKey('a'), passkey('pk1')]).done).toBe(true)
    // A passkey first proves nothing (the first step wants an API key); the same key twice proves one step.
    expect(progress(steps, [passkey('pk1')]).satisfied).toEqual([])
    expect(progress([steps[0], steps[0]] as typeof steps, [apiKey('a'), apiKey('a')]).done).toBe(false)
  })
})
