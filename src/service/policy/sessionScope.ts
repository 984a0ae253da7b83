/**
 * Session profiles' scopes (docs "Session profiles"): a session issued under a profile may run an
 * activity only when the profile's scope — policy language, the keywords of a policy's condition —
 * evaluates to true on it. False, or an error (a field the activity does not carry, a budget
 * exceeded, a stored scope that no longer parses), refuses it: an evaluation error denies.
 */
import { SigilError } from '../../api/errors.js'
import type { Sql } from '../store/sql.js'
import type { GasStationOf } from './context.js'
import { evaluateCondition } from './gate.js'

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
  const decision = await evaluateCondition(sql, { id: profile.id, name: profile.name, text: profile.scope }, a)
  if (decision?.outcome === 'OUTCOME_ALLOW') return
  const error = decision?.evaluations[0]?.error
  const why = error ? `could not be evaluated on it (${error.message})` : decision ? 'does not allow it' : 'no longer parses'
  throw new SigilError(
    'SESSION_SCOPE_DENIED',
    `this session was issued under the session profile '${profile.name}' (${profile.id}), whose scope ${why}`,
  )
}
