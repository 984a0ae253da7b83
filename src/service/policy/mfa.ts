/**
 * MFA policies (docs "Multi-factor authentication", "Satisfying MFA"): a user's policies are tried
 * in order; the first whose condition (policy language, the keywords of a policy's condition) holds
 * for an activity the user submits applies. Its steps must each be proven, in order, by a credential
 * of the user: the submitting stamp first, then each approve_activity the user stamps. A stamp
 * proves the method of its credential — an API key (AUTHENTICATION_TYPE_API_KEY), a session key
 * (AUTHENTICATION_TYPE_SESSION, its `id` the session profile), a passkey
 * (AUTHENTICATION_TYPE_PASSKEY) — never another (sessions are not transitive), and one credential
 * proves one step. A condition that cannot be evaluated applies the policy (fails closed).
 */
import { SigilError } from '../../api/errors.js'
import type { Principal } from '../auth/principal.js'
import { LOGIN_CREDENTIAL_TYPE } from '../auth/sessionKeys.js'
import { listMfaPolicies, type MfaPolicyRow, type StoredMethod, type StoredStep, stepsOf } from '../store/mfaPolicies.js'
import type { Sql } from '../store/sql.js'
import type { GasStationOf } from './context.js'
import { evaluateCondition } from './gate.js'

/** A proof: the method a stamp proved, with the credential that made it (one credential, one step). */
export type MfaProof = StoredMethod & { credentialId: string }

/** The method the stamp of `principal` proves. */
export function proofOf(principal: Pick<Principal, 'credentialKind' | 'credentialId' | 'credentialType' | 'sessionScope'>): MfaProof {
  if (principal.credentialKind === 'WEBAUTHN') {
    return { type: 'AUTHENTICATION_TYPE_PASSKEY', id: principal.credentialId, credentialId: principal.credentialId }
  }
  // Session keys: a login's (stamp_login, otp_login, oauth_login: CREDENTIAL_TYPE_LOGIN) and read-write sessions' credential bundles.
  if (principal.credentialType === LOGIN_CREDENTIAL_TYPE || principal.credentialType?.includes('SESSION')) {
    return {
      type: 'AUTHENTICATION_TYPE_SESSION',
      ...(principal.sessionScope ? { id: principal.sessionScope.id } : {}),
      credentialId: principal.credentialId,
    }
  }
  return { type: 'AUTHENTICATION_TYPE_API_KEY', id: principal.credentialId, credentialId: principal.credentialId }
}

function matches(method: StoredMethod, proof: MfaProof): boolean {
  return method.type === proof.type && (method.id === undefined || method.id === proof.id)
}

/** How far the proofs (in the order they were made) get through the steps: the methods that satisfied each step so far. */
export function progress(steps: readonly StoredStep[], proofs: readonly MfaProof[]): { satisfied: StoredMethod[]; done: boolean } {
  const satisfied: StoredMethod[] = []
  const used = new Set<string>()
  for (const proof of proofs) {
    const step = steps[satisfied.length]
    if (!step || used.has(proof.credentialId)) continue
    const method = step.any.find((m) => matches(m, proof))
    if (!method) continue
    used.add(proof.credentialId)
    satisfied.push({ type: proof.type, ...(proof.id !== undefined ? { id: proof.id } : {}) })
  }
  return { satisfied, done: satisfied.length >= steps.length }
}

/**
 * The MFA policy that applies to an activity the user submits (the first in order whose condition
 * holds, cannot be evaluated or no longer parses), or undefined when none does. `known`: the user's
 * policies in order, read with the credential (API keys); else read here.
 */
export async function applicableMfaPolicy(
  sql: Sql,
  a: {
    orgId: string
    userId: string
    publicKey: string
    type: string
    intent: Record<string, unknown>
    now: number
    gasStationOf: GasStationOf
    known?: readonly MfaPolicyRow[] | undefined
  },
): Promise<{ id: string; steps: StoredStep[] } | undefined> {
  const rows = a.known ?? (await listMfaPolicies(sql, a.orgId, a.userId))
  for (const r of rows) {
    const decision = await evaluateCondition(sql, { id: r.id, name: r.name, text: r.condition }, a)
    if (decision?.outcome !== 'OUTCOME_DENY_IMPLICIT') return { id: r.id, steps: stepsOf(r.required_methods) }
  }
  return undefined
}

/** The error of an approval whose credential proves nothing new. */
export function proofNotNeeded(proof: MfaProof, reused: boolean): SigilError {
  return new SigilError(
    'VOTE_NOT_ALLOWED',
    reused
      ? 'this credential already proved a step of this activity; approve it with another of your credentials'
      : `a ${proof.type} does not satisfy the step this activity waits for`,
  )
}
