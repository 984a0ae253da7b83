/**
 * Policy evaluation in the activity engine (features/policies/overview "Policy
 * evaluation"): the context of an activity and its approvers, the decision over the organization's
 * policies, its record (get_policy_evaluations) and the error of a denied activity.
 *
 * Which activities policies govern: those submitted by a user outside the root quorum of their
 * organization, in an organization that has policies, except the root quorum activities (the docs'
 * list) and, in Sigil, managing policies themselves: those keep waiting for the root quorum, as
 * every activity of such a user did before policies existed.
 */
import { SigilError } from '../../api/errors.js'
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
} from './index.js'
import {
  insertPolicySet,
  listPoliciesVersioned,
  OUTCOME_LETTERS,
  type PolicyRow,
  policiesVersion,
  setVoteEvaluation,
  type VoteEvaluation,
} from '../store/policies.js'
import type { Sql } from '../store/sql.js'
import { getUser } from '../store/users.js'
import { credentialsOf, type GasStationOf, keywordsRead, type PolicyVote, resourceContexts } from './context.js'

/** Types policies never govern: only the root quorum runs them. */
const ROOT_ONLY_TYPES: ReadonlySet<string> = new Set([
  ...ROOT_QUORUM_ACTIVITY_TYPES,
  'ACTIVITY_TYPE_CREATE_POLICY',
  'ACTIVITY_TYPE_CREATE_POLICY_V2',
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
 * The parsed policies of one organization at one version (migration 009), in evaluation order;
 * `stored` once this instance recorded the set (migration 012) for the evaluations that name it.
 */
export type PolicySet = { version: string; policies: GatePolicy[]; stored: boolean }

/**
 * Parsed policies per organization, valid for the version read with them. Each activity checks the
 * organization's current version (read with the credential, or one primary-key lookup) and uses the
 * cached set only when it is the same: a write by any instance on the same database changes the
 * version in its own transaction, so a cached set is never served after its policies changed.
 * Parses are also kept by the policy's text, so an update re-parses only the policy it changed.
 */
export type PolicyCache = {
  organizations: Map<string, PolicySet>
  parsed: Map<string, GatePolicy['parsed']>
  /** Policies held by `organizations`, all organizations together. */
  held: number
}

/** At most this many policy texts, and policies of all cached organizations together; the oldest entries go first. */
const CACHE_LIMIT = 10_000

/** An empty cache, one per engine (service instance). */
export function createPolicyCache(): PolicyCache {
  return { organizations: new Map(), parsed: new Map(), held: 0 }
}

function rememberParsed(cache: PolicyCache, key: string, parsed: GatePolicy['parsed']): void {
  cache.parsed.set(key, parsed)
  if (cache.parsed.size > CACHE_LIMIT) cache.parsed.delete(cache.parsed.keys().next().value as string)
}

function rememberOrganization(cache: PolicyCache, orgId: string, entry: PolicySet): void {
  const old = cache.organizations.get(orgId)
  if (old) {
    cache.held -= old.policies.length
    cache.organizations.delete(orgId)
  }
  cache.organizations.set(orgId, entry)
  cache.held += entry.policies.length
  for (const [id, e] of cache.organizations) {
    if (cache.held <= CACHE_LIMIT || id === orgId) break
    cache.organizations.delete(id)
    cache.held -= e.policies.length
  }
}

function parseRow(r: PolicyRow, cache: PolicyCache | undefined): GatePolicy {
  const key = JSON.stringify([r.condition, r.consensus, r.time_expr])
  let parsed = cache?.parsed.get(key)
  if (!parsed) {
    const p = parsePolicy({ condition: r.condition, consensus: r.consensus, time: r.time_expr ?? undefined })
    if (!p.ok) throw new SigilError('INTERNAL', `stored policy ${r.id} does not parse`)
    parsed = p.policy
    if (cache) rememberParsed(cache, key, parsed)
  }
  return { policyId: r.id, effect: r.effect, parsed, name: r.name }
}

/**
 * The organization's policies, parsed, with their version. A stored policy that no longer parses
 * (it did when it was stored) fails the activity rather than being skipped: a DENY must never be
 * lost. With a cache, an unchanged set costs one read of the organization's policies version, or
 * none when the caller read it already (`knownVersion`, read with the credential: the set in force
 * at that read). An organization that does not exist has no policies.
 *
 * @throws INTERNAL when a stored policy does not parse
 */
export async function loadPolicies(sql: Sql, orgId: string, cache?: PolicyCache, knownVersion?: string): Promise<PolicySet> {
  if (cache) {
    const hit = cache.organizations.get(orgId)
    if (hit && hit.version === (knownVersion ?? (await policiesVersion(sql, orgId)))) return hit
  }
  const read = await listPoliciesVersioned(sql, orgId)
  if (!read) return { version: '', policies: [], stored: false }
  const set: PolicySet = { version: read.version, policies: read.rows.map((r) => parseRow(r, cache)), stored: false }
  if (cache) rememberOrganization(cache, orgId, set)
  return set
}

/**
 * Records the set's policy ids under its version (migration 012), which the evaluations over it
 * name. Once per set and instance when `remember` (the caller commits it on its own, outside any
 * transaction that could roll it back); a repeated write does nothing.
 */
export async function storePolicySet(sql: Sql, orgId: string, set: PolicySet, now: number, remember: boolean): Promise<void> {
  if (set.stored) return
  await insertPolicySet(sql, { version: set.version, orgId, policyIds: set.policies.map((p) => p.policyId), now })
  if (remember) set.stored = true
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
 * `wallet_account`, `private_key`) are read from the intent once per call (context.ts).
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
    /** Approvers already read (the submitter, with the credential): not read again. */
    known?: readonly PolicyUser[]
    /** The Gas Station of each configured network: the delegate a batch send may set (`eth.eip_7702_authorization`). */
    gasStationOf: GasStationOf
  },
): Promise<Decision> {
  const approvers: PolicyUser[] = []
  for (const id of a.approverIds) {
    const known = a.known?.find((k) => k.id === id)
    if (known) {
      approvers.push(known)
      continue
    }
    const u = await getUser(sql, a.orgId, id)
    if (u) approvers.push({ id: u.id, tags: u.user_tags, ...(u.user_email ? { email: u.user_email } : {}) })
  }
  const ra = activityResourceAction(a.type)
  const intent = dynamic(a.intent)
  const params =
    intent !== undefined && typeof intent === 'object' && !Array.isArray(intent) ? (intent as { [k: string]: PolicyDynamic }) : undefined
  // Only what some policy reads is looked up and parsed, once for all of them.
  let read = readBySet.get(policies)
  if (!read) {
    read = keywordsRead(policies.map((p) => p.parsed))
    readBySet.set(policies, read)
  }
  const variants = await resourceContexts(sql, a.orgId, a.type, a.intent, read, a.gasStationOf)
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

/** Parsed lone conditions (session profile scopes, MFA policy conditions) by text; null when the text does not parse. */
const parsedConditions = new Map<string, GatePolicy['parsed'] | null>()

/**
 * A lone condition — policy language with a policy condition's keywords, not a stored policy —
 * evaluated on an activity as an ALLOW policy of its own (`id`, `name` name it in the decision):
 * `OUTCOME_ALLOW` when it holds, `OUTCOME_DENY_IMPLICIT` when it does not, `OUTCOME_ERROR` (or an
 * evaluation error on the one record) when it cannot be evaluated; undefined when the text does not parse.
 */
export async function evaluateCondition(
  sql: Sql,
  condition: { id: string; name: string; text: string },
  a: {
    orgId: string
    type: string
    intent: Record<string, unknown>
    userId: string
    publicKey: string
    now: number
    gasStationOf: GasStationOf
  },
): Promise<Decision | undefined> {
  let parsed = parsedConditions.get(condition.text)
  if (parsed === undefined) {
    const p = parsePolicy({ condition: condition.text })
    parsed = p.ok ? p.policy : null
    if (parsedConditions.size >= CACHE_LIMIT) parsedConditions.clear()
    parsedConditions.set(condition.text, parsed)
  }
  if (parsed === null) return undefined
  return evaluateActivity(sql, [{ policyId: condition.id, effect: 'EFFECT_ALLOW', parsed, name: condition.name }], {
    orgId: a.orgId,
    type: a.type,
    intent: a.intent,
    approverIds: [a.userId],
    votes: [{ userId: a.userId, publicKey: a.publicKey }],
    now: a.now,
    gasStationOf: a.gasStationOf,
  })
}

/** The keywords a set of policies reads, by the set (a cached set is the same array until its version changes). */
const readBySet = new WeakMap<readonly GatePolicy[], ReadonlySet<string>>()

/** How strict each decision is: a deny beats waiting for consensus, which beats an allow. */
const SEVERITY: Readonly<Record<Decision['outcome'], number>> = {
  OUTCOME_ALLOW: 0,
  OUTCOME_REQUIRES_CONSENSUS: 1,
  OUTCOME_DENY_IMPLICIT: 2,
  OUTCOME_ERROR: 3,
  OUTCOME_DENY_EXPLICIT: 4,
}

/** True when the decision denies the activity for good (explicit deny, a DENY policy that errs, or evaluation over budget). */
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
  const why =
    d.reason === 'EVALUATION_BUDGET_EXCEEDED'
      ? 'a policy could not be evaluated within its budget'
      : d.reason === 'DENY_POLICY_ERROR'
        ? 'a DENY policy could not be evaluated on what the activity carries (fails closed)'
        : 'denied by policy'
  return new SigilError('POLICY_DENIED', `activity denied by policy: ${d.outcome}, ${why}${names.length ? `: ${names.join(', ')}` : ''}`)
}

/** What an evaluation of an activity of `orgId` (for the vote `voteId`) over the policies of `set` records. */
export type EvaluationRecord = { orgId: string; voteId: string; set: PolicySet; decision: Decision; now: number }

/**
 * The evaluation as its vote stores it: the set's version and one outcome letter per policy, in the
 * set's order (a decision stopped by the step budget covers a prefix of it).
 *
 * @throws INTERNAL when the decision's evaluations are not the set's policies in order
 */
export function evaluationRow(e: EvaluationRecord): VoteEvaluation {
  let outcomes = ''
  for (const [i, x] of e.decision.evaluations.entries()) {
    if (e.set.policies[i]?.policyId !== x.policyId) throw new SigilError('INTERNAL', 'policy evaluation out of its set order')
    outcomes += OUTCOME_LETTERS[x.outcome]
  }
  return { evaluation_id: crypto.randomUUID(), policy_set: e.set.version, outcomes }
}

/** Records the evaluation on its vote (stored already), with its policy set, in the caller's transaction. */
export async function recordEvaluation(sql: Sql, e: EvaluationRecord): Promise<void> {
  await storePolicySet(sql, e.orgId, e.set, e.now, false)
  await setVoteEvaluation(sql, e.voteId, evaluationRow(e))
}
