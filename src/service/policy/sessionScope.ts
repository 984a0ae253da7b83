/**
 * Session profiles' scopes (docs "Session profiles"): a session issued under a profile may run an
 * activity only when the profile's scope — policy language, the keywords of a policy's condition —
 * evaluates to true on it. False, or an error (a field the activity does not carry, a budget
 * exceeded), refuses it: an evaluation error denies.
 */
import { SigilError } from '../../api/errors.js'
import type { Sql } from '../store/sql.js'
import type { GasStationOf } from './context.js'
import { evaluateActivity, type GatePolicy } from './gate.js'
import { parsePolicy } from './index.js'

/** Parsed scopes by text (profiles are immutable, so a text parses the same forever). */
const parsedScopes = new Map<string, GatePolicy[]>()
const PARSED_LIMIT = 1_000

/** The scope as a one-policy set: ALLOW when it holds. Undefined when the stored text no longer parses. */
function scopePolicies(profile: { id: string; name: string; scope: string }): GatePolicy[] | undefined {
  const hit = parsedScopes.get(profile.scope)
  if (hit) return hit
  const p = parsePolicy({ condition: profile.scope })
  if (!p.ok) return undefined
  const set: GatePolicy[] = [{ policyId: profile.id, effect: 'EFFECT_ALLOW', parsed: p.policy, name: profile.name }]
  if (parsedScopes.size >= PARSED_LIMIT) parsedScopes.clear()
  parsedScopes.set(profile.scope, set)
  return set
}

/**
 * Refuses the activity unless the session's profile scope allows it.
 *
 * @throws SESSION_SCOPE_DENIED when the scope is false on the activity or cannot be evaluated on it
 */
export async function checkSessionScope(
  sql: Sql,
  profile: { id: string; name: string; scope: string },
  a: {
    orgId: string
    type: string
    intent: Record<string, unknown>
    userId: string
    publicKey: string
    now: number
    gasStationOf: GasStationOf
  },
): Promise<void> {
  const policies = scopePolicies(profile)
  const decision = policies
    ? await evaluateActivity(sql, policies, {
        orgId: a.orgId,
        type: a.type,
        intent: a.intent,
        approverIds: [a.userId],
        votes: [{ userId: a.userId, publicKey: a.publicKey }],
        now: a.now,
        gasStationOf: a.gasStationOf,
      })
    : undefined
  if (decision?.outcome === 'OUTCOME_ALLOW') return
  const error = decision?.evaluations[0]?.error
  const why = error ? `could not be evaluated on it (${error.message})` : 'does not allow it'
  throw new SigilError(
    'SESSION_SCOPE_DENIED',
    `this session was issued under the session profile '${profile.name}' (${profile.id}), whose scope ${why}`,
  )
}
