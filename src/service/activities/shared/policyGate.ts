/**
 * Policy evaluation in the activity engine (issue 14 item 3, features/policies/overview "Policy
 * evaluation"): the context of an activity and its approvers, the decision over the organization's
 * policies, its record (get_policy_evaluations) and the error of a denied activity.
 *
 * Which activities policies govern: those submitted by a user outside the root quorum of their
 * organization, in an organization that has policies, except the root quorum activities (the docs'
 * list) and, in Sigil, managing policies themselves: those keep waiting for the root quorum, as
 * every activity of such a user did before policies existed.
 */
import { SigilError } from '../../../api/errors.js'
import {
  activityKind,
  activityResourceAction,
  type Decision,
  type DecisionPolicy,
  decide,
  type PolicyContext,
  type PolicyDynamic,
  type PolicyUser,
  parsePolicy,
  ROOT_QUORUM_ACTIVITY_TYPES,
} from '../../policy/index.js'
import { insertPolicyEvaluation, listPolicies } from '../../store/policies.js'
import type { Sql } from '../../store/sql.js'
import { getUser } from '../../store/users.js'
import { credentialsOf, keywordsRead, type PolicyVote, resourceContexts } from './policyContext.js'

/** Types policies never govern: only the root quorum runs them. */
const ROOT_ONLY_TYPES: ReadonlySet<string> = new Set([
  ...ROOT_QUORUM_ACTIVITY_TYPES,
  'ACTIVITY_TYPE_CREATE_POLICY_V3',
  'ACTIVITY_TYPE_CREATE_POLICIES',
  'ACTIVITY_TYPE_UPDATE_POLICY',
  'ACTIVITY_TYPE_UPDATE_POLICY_V2',
  'ACTIVITY_TYPE_DELETE_POLICY',
  'ACTIVITY_TYPE_DELETE_POLICIES',
  'ACTIVITY_TYPE_APPROVE_ACTIVITY',
  'ACTIVITY_TYPE_REJECT_ACTIVITY',
])

/** True when the organization's policies may decide an activity of this type. */
export function policiesMayGovern(type: string): boolean {
  return !ROOT_ONLY_TYPES.has(type)
}

/** A policy as the engine evaluates it, with its name for messages. */
export type GatePolicy = DecisionPolicy & { name: string }

/**
 * The organization's policies, parsed. A stored policy that no longer parses (it did when it was
 * stored) fails the activity rather than being skipped: a DENY must never be lost.
 *
 * @throws INTERNAL when a stored policy does not parse
 */
export async function loadPolicies(sql: Sql, orgId: string): Promise<GatePolicy[]> {
  const rows = await listPolicies(sql, orgId)
  return rows.map((r) => {
    const parsed = parsePolicy({ condition: r.condition, consensus: r.consensus, time: r.time_expr ?? undefined })
    if (!parsed.ok) throw new SigilError('INTERNAL', `stored policy ${r.id} does not parse`)
    return { policyId: r.id, effect: r.effect, parsed: parsed.policy, name: r.name }
  })
}

/** `signWith` → `sign_with`: the hosted `activity.params` names the intent's fields in snake case (docs examples). */
function snake(key: string): string {
  let out = ''
  for (const c of key) out += c >= 'A' && c <= 'Z' ? `_${c.toLowerCase()}` : c
  return out
}

/** The intent as the language's dynamic values (`activity.params`): keys in snake case, nulls dropped. */
function dynamic(v: unknown): PolicyDynamic | undefined {
  if (v === null || v === undefined) return undefined
  if (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number') return v
  if (Array.isArray(v)) return v.map(dynamic).filter((x): x is PolicyDynamic => x !== undefined)
  if (typeof v === 'object') {
    const out: Record<string, PolicyDynamic> = {}
    for (const [k, x] of Object.entries(v)) {
      const d = dynamic(x)
      if (d !== undefined) out[snake(k)] = d
    }
    return out
  }
  return undefined
}

/**
 * The decision for an activity of `orgId` approved so far by `approverIds` (the submitter first,
 * then each approving voter); `votes` give the public keys that stamped those approvals, for
 * `credentials`. The resource namespaces (`eth.tx`, `eth.eip_712`, `solana.tx`, `wallet(s)`,
 * `wallet_account`, `private_key`) are read from the intent once per call (policyContext.ts).
 */
export async function evaluateActivity(
  sql: Sql,
  policies: readonly GatePolicy[],
  a: {
    orgId: string
    type: string
    intent: Record<string, unknown>
    approverIds: readonly string[]
    votes?: readonly PolicyVote[]
    now: number
  },
): Promise<Decision> {
  const approvers: PolicyUser[] = []
  for (const id of a.approverIds) {
    const u = await getUser(sql, a.orgId, id)
    if (u) approvers.push({ id: u.id, tags: u.user_tags, ...(u.user_email ? { email: u.user_email } : {}) })
  }
  const ra = activityResourceAction(a.type)
  const intent = dynamic(a.intent)
  const params =
    intent !== undefined && typeof intent === 'object' && !Array.isArray(intent) ? (intent as { [k: string]: PolicyDynamic }) : undefined
  // Only what some policy reads is looked up and parsed, once for all of them.
  const read = keywordsRead(policies.map((p) => p.parsed))
  const variants = await resourceContexts(sql, a.orgId, a.type, a.intent, read)
  const base: PolicyContext = {
    approvers,
    credentials: a.votes && read.has('credentials') ? await credentialsOf(sql, a.orgId, a.votes) : [],
    activity: {
      type: a.type,
      kind: activityKind(a.type),
      ...(ra ? { resource: ra.resource, action: ra.action } : {}),
      ...(params ? { params } : {}),
    },
    now: new Date(a.now),
  }
  // A batch (several typed-data payloads) is decided per payload; the strictest decision stands.
  let strictest: Decision | undefined
  for (const resources of variants) {
    const d = decide(policies, { ...base, ...resources }, { rootQuorum: false })
    if (!strictest || SEVERITY[d.outcome] > SEVERITY[strictest.outcome]) strictest = d
    if (isDenied(d)) break
  }
  return strictest ?? decide(policies, base, { rootQuorum: false })
}

/** How strict each decision is: a deny beats waiting for consensus, which beats an allow. */
const SEVERITY: Readonly<Record<Decision['outcome'], number>> = {
  OUTCOME_ALLOW: 0,
  OUTCOME_REQUIRES_CONSENSUS: 1,
  OUTCOME_DENY_IMPLICIT: 2,
  OUTCOME_ERROR: 3,
  OUTCOME_DENY_EXPLICIT: 4,
}

/** True when the decision denies the activity for good (explicit deny, or evaluation over budget). */
export function isDenied(d: Decision): boolean {
  return d.outcome === 'OUTCOME_DENY_EXPLICIT' || d.outcome === 'OUTCOME_ERROR'
}

/** True when the decision lets the activity run. */
export function isAllowed(d: Decision): boolean {
  return d.outcome === 'OUTCOME_ALLOW'
}

/** The error of a denied activity: names the outcome and the deciding policies. */
export function policyDenied(d: Decision, policies: readonly GatePolicy[]): SigilError {
  const names = d.policyIds.map((id) => {
    const p = policies.find((x) => x.policyId === id)
    return p ? `'${p.name}' (${id})` : id
  })
  const why = d.outcome === 'OUTCOME_ERROR' ? 'a policy could not be evaluated within its budget' : 'denied by policy'
  return new SigilError('POLICY_DENIED', `activity denied by policy: ${d.outcome}, ${why}${names.length ? `: ${names.join(', ')}` : ''}`)
}

/** Records one evaluation of the activity (for the vote `voteId`). */
export async function recordEvaluation(
  sql: Sql,
  e: { activityId: string; orgId: string; voteId: string; decision: Decision; now: number },
): Promise<void> {
  await insertPolicyEvaluation(sql, {
    id: crypto.randomUUID(),
    activity_id: e.activityId,
    organization_id: e.orgId,
    vote_id: e.voteId,
    evaluations: e.decision.evaluations.map((x) => ({ policyId: x.policyId, outcome: x.outcome })),
    created_at: e.now,
  })
}
