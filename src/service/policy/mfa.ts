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
import { listMfaPolicies, type StoredMethod, type StoredStep, stepsOf } from '../store/mfaPolicies.js'
import type { Sql } from '../store/sql.js'
import type { GasStationOf } from './context.js'
import { evaluateActivity, type GatePolicy } from './gate.js'
import { parsePolicy } from './index.js'

/** A proof: the method a stamp proved, with the credential that made it (one credential, one step). */
export type MfaProof = StoredMethod & { credentialId: string }

/** The method the stamp of `principal` proves. */
export function proofOf(principal: Pick<Principal, 'credentialKind' | 'credentialId' | 'credentialType' | 'sessionScope'>): MfaProof {
  if (principal.credentialKind === 'WEBAUTHN') {
    return { type: 'AUTHENTICATION_TYPE_PASSKEY', id: principal.credentialId, credentialId: principal.credentialId }
  }
  if (principal.credentialType?.includes('SESSION')) {
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

/** Parsed conditions by text. */
const parsedConditions = new Map<string, GatePolicy['parsed'] | null>()

/**
 * The MFA policy that applies to an activity the user submits (the first in order whose condition
 * holds or cannot be evaluated), or undefined when none does.
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
  },
): Promise<{ id: string; steps: StoredStep[] } | undefined> {
  const rows = await listMfaPolicies(sql, a.orgId, a.userId)
  for (const r of rows) {
    let parsed = parsedConditions.get(r.condition)
    if (parsed === undefined) {
      const p = parsePolicy({ condition: r.condition })
      parsed = p.ok ? p.policy : null
      if (parsedConditions.size >= 1_000) parsedConditions.clear()
      parsedConditions.set(r.condition, parsed)
    }
    if (parsed === null) return { id: r.id, steps: stepsOf(r.required_methods) }
    const decision = await evaluateActivity(sql, [{ policyId: r.id, effect: 'EFFECT_ALLOW', parsed, name: r.name }], {
      orgId: a.orgId,
      type: a.type,
      intent: a.intent,
      approverIds: [a.userId],
      votes: [{ userId: a.userId, publicKey: a.publicKey }],
      now: a.now,
      gasStationOf: a.gasStationOf,
    })
    if (decision.outcome !== 'OUTCOME_DENY_IMPLICIT') return { id: r.id, steps: stepsOf(r.required_methods) }
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
