/**
 * Policies in words for the popup: a denied activity ("Denied by policy 'name'")
 * and who an activity waits for. The service names the deciding policies in a denial's message
 * (service/policy/gate.ts `policyDenied`: `… 'name' (policy id), …`); who must
 * approve comes from the consensus of the policies waiting for it, when the user may read them.
 */
import type { Failure, PolicyEvaluationRecord } from '../../../api/common'

/** The service's ErrorInfo reason of a denial by policy. */
export const POLICY_DENIED = 'POLICY_DENIED'

/** True when an activity failure (wire `failure`) is a denial by policy. */
export function isPolicyDenied(failure: Pick<Failure, 'details'>): boolean {
  return failure.details.some((d) => d['@type'] === 'type.googleapis.com/sigil.ErrorInfo' && d.reason === POLICY_DENIED)
}

/** The policy names a denial message gives, in order: each is `'name' (uuid)`. */
export function deniedPolicyNames(message: string): string[] {
  const names: string[] = []
  for (const m of message.matchAll(/'(.*?)' \([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\)/g)) names.push(m[1] as string)
  return names
}

/** `Denied by policy 'a'.`, `Denied by policies 'a' and 'b'.`, or `Denied by policy.` when none is named. */
export function deniedByPolicyText(message: string): string {
  const names = deniedPolicyNames(message).map((n) => `'${n}'`)
  if (names.length === 0) return 'Denied by policy.'
  if (names.length === 1) return `Denied by policy ${names[0]}.`
  return `Denied by policies ${names.slice(0, -1).join(', ')} and ${names.at(-1)}.`
}

/** The single-quoted string literals of a policy expression, unescaped (`\'`, `\\`). */
export function stringLiterals(expression: string): string[] {
  const out: string[] = []
  let i = 0
  while (i < expression.length) {
    if (expression[i] !== "'") {
      i++
      continue
    }
    let text = ''
    i++
    while (i < expression.length && expression[i] !== "'") {
      if (expression[i] === '\\' && i + 1 < expression.length) i++
      text += expression[i]
      i++
    }
    i++
    out.push(text)
  }
  return out
}

/** What the popup knows of the organization, to say who an activity waits for. */
export type WaitingFacts = {
  /** The organization's policies, when the logged-in user may read them. */
  policies?: ReadonlyArray<{ policyId: string; policyName: string; consensus: string }>
  /** User id → name, when the logged-in user may list users. */
  userNames?: ReadonlyMap<string, string>
  /** The logged-in user's id: named "you". */
  me?: string
}

/** Who may still approve: the users a waiting policy's consensus names, and the policies' names. */
export type Waiting = { text: string; userIds: string[] }

function namesList(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`
}

/**
 * Who an activity in ACTIVITY_STATUS_CONSENSUS_NEEDED waits for, from its latest policy evaluation
 * (`evaluations`, oldest first): the users named by the consensus of each policy whose outcome is
 * OUTCOME_REQUIRES_CONSENSUS; the root quorum when no policy decided it (or none allows it).
 */
export function waitingFor(evaluations: readonly PolicyEvaluationRecord[], facts: WaitingFacts): Waiting {
  const latest = evaluations.at(-1)
  if (!latest) return { text: 'Waiting for approval by the organization’s root quorum.', userIds: [] }
  const waitingIds = latest.policyEvaluations.filter((e) => e.outcome === 'OUTCOME_REQUIRES_CONSENSUS').map((e) => e.policyId)
  if (waitingIds.length === 0) return { text: 'Waiting for approval by the organization’s root quorum (no policy allows it).', userIds: [] }
  if (!facts.policies) return { text: 'Waiting for approval by the organization.', userIds: [] }
  const policies = waitingIds.map((id) => facts.policies?.find((p) => p.policyId === id)).filter((p) => p !== undefined)
  if (policies.length === 0) return { text: 'Waiting for approval by the organization.', userIds: [] }
  const userIds = [...new Set(policies.flatMap((p) => stringLiterals(p.consensus)).filter((s) => facts.userNames?.has(s)))]
  const named = policies.map((p) => `'${p.policyName}'`).join(', ')
  const people = userIds.map((id) => (id === facts.me ? 'you' : (facts.userNames?.get(id) ?? id)))
  const who = people.length > 0 ? namesList(people) : 'the approvers it names'
  return { text: `Waiting for approval by ${who} (policy ${named}).`, userIds }
}
