/**
 * Policies: an organization's policies as written, and the recorded evaluations of each
 * vote of an activity (get_policy_evaluations). The expressions were parsed before they were
 * stored (activities/create_policy.ts); `condition` and `consensus` are '' when absent, `time_expr`
 * NULL.
 */
import type { PolicyEffect, PolicyOutcome } from '../../api/enumLists.js'
import type { Sql } from './sql.js'
import { toTimestamp } from './time.js'

export type PolicyRow = {
  seq: number | string
  id: string
  organization_id: string
  name: string
  effect: PolicyEffect
  condition: string
  consensus: string
  time_expr: string | null
  notes: string
  created_at: number
  updated_at: number
}

/** A policy as created or updated. */
export type PolicyFields = {
  name: string
  effect: PolicyEffect
  condition: string
  consensus: string
  time: string | null
  notes: string
}

const num = (r: PolicyRow): PolicyRow => ({ ...r, created_at: Number(r.created_at), updated_at: Number(r.updated_at) })

export async function insertPolicy(sql: Sql, p: PolicyFields & { id: string; orgId: string; now: number }): Promise<void> {
  await sql.query(
    `INSERT INTO policies (id, organization_id, name, effect, condition, consensus, time_expr, notes, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
    [p.id, p.orgId, p.name, p.effect, p.condition, p.consensus, p.time, p.notes, p.now],
  )
}

/**
 * How many policies the organization holds, counted while holding its row (`FOR UPDATE`): two
 * creates in one organization count one after the other, never both under the limit at once.
 */
export async function countPoliciesLocked(tx: Sql, orgId: string): Promise<number> {
  await tx.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [orgId])
  const [row] = await tx.query<{ n: number | string }>('SELECT count(*) AS n FROM policies WHERE organization_id = $1', [orgId])
  return Number(row?.n ?? 0)
}

export async function getPolicy(sql: Sql, orgId: string, id: string): Promise<PolicyRow | undefined> {
  const [row] = await sql.query<PolicyRow>('SELECT * FROM policies WHERE id = $1 AND organization_id = $2', [id, orgId])
  return row && num(row)
}

/** One policy of the organization, its row locked for an update; undefined when it has none with this id. */
export async function lockPolicy(tx: Sql, orgId: string, id: string): Promise<PolicyRow | undefined> {
  const [row] = await tx.query<PolicyRow>('SELECT * FROM policies WHERE id = $1 AND organization_id = $2 FOR UPDATE', [id, orgId])
  return row && num(row)
}

/** The organization's policies, oldest first. */
export async function listPolicies(sql: Sql, orgId: string): Promise<PolicyRow[]> {
  const rows = await sql.query<PolicyRow>('SELECT * FROM policies WHERE organization_id = $1 ORDER BY seq', [orgId])
  return rows.map(num)
}

/**
 * The version of the organization's policies (migration 009): changes with every write to its
 * policies, in the writing transaction. Undefined when there is no such organization.
 */
export async function policiesVersion(sql: Sql, orgId: string): Promise<string | undefined> {
  const [row] = await sql.query<{ policies_version: string }>('SELECT policies_version FROM organizations WHERE id = $1', [orgId])
  return row?.policies_version
}

/**
 * The organization's policies, oldest first, with the version they are at: one statement, so the
 * version names exactly these rows. Undefined when there is no such organization.
 */
export async function listPoliciesVersioned(sql: Sql, orgId: string): Promise<{ version: string; rows: PolicyRow[] } | undefined> {
  const rows = await sql.query<PolicyRow & { policies_version: string; has_policy: boolean }>(
    `SELECT o.policies_version, p.id IS NOT NULL AS has_policy, p.*
       FROM organizations o LEFT JOIN policies p ON p.organization_id = o.id
      WHERE o.id = $1 ORDER BY p.seq`,
    [orgId],
  )
  const [first] = rows
  if (!first) return undefined
  return {
    version: first.policies_version,
    rows: rows.filter((r) => r.has_policy).map(({ policies_version: _v, has_policy: _h, ...r }) => num(r)),
  }
}

export async function updatePolicy(sql: Sql, orgId: string, id: string, p: PolicyFields & { now: number }): Promise<void> {
  await sql.query(
    `UPDATE policies SET name = $3, effect = $4, condition = $5, consensus = $6, time_expr = $7, notes = $8, updated_at = $9
     WHERE id = $1 AND organization_id = $2`,
    [id, orgId, p.name, p.effect, p.condition, p.consensus, p.time, p.notes, p.now],
  )
}

/** Deletes one policy of the organization; false when it has none with this id. */
export async function deletePolicy(sql: Sql, orgId: string, id: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM policies WHERE id = $1 AND organization_id = $2 RETURNING id', [id, orgId])
  return rows.length > 0
}

/** The wire record (hosted OpenAPI v1Policy), timestamps as queries give them. */
export function policyToWire(row: PolicyRow) {
  return {
    policyId: row.id,
    policyName: row.name,
    effect: row.effect,
    createdAt: toTimestamp(row.created_at),
    updatedAt: toTimestamp(row.updated_at),
    notes: row.notes,
    consensus: row.consensus,
    condition: row.condition,
    ...(row.time_expr !== null ? { time: row.time_expr } : {}),
  }
}

/** An evaluation as get_policy_evaluations serves it: every policy of the set with its outcome. */
export type PolicyEvaluationRow = {
  id: string
  activity_id: string
  organization_id: string
  vote_id: string
  evaluations: Array<{ policyId: string; outcome: PolicyOutcome }>
  created_at: number
}

/**
 * An evaluation as the engine writes it, on the vote it evaluated (migration 012): its id, the set
 * of policies it went over (their version) and one letter per policy of the set, in its order.
 */
export type VoteEvaluation = { evaluation_id: string; policy_set: string; outcomes: string }

/** One letter per outcome in `votes.outcomes`. Never change a letter: stored rows use them. */
export const OUTCOME_LETTERS: Readonly<Record<PolicyOutcome, string>> = {
  OUTCOME_ALLOW: 'A',
  OUTCOME_DENY_EXPLICIT: 'E',
  OUTCOME_DENY_IMPLICIT: 'I',
  OUTCOME_REQUIRES_CONSENSUS: 'C',
  OUTCOME_REJECTED: 'R',
  OUTCOME_ERROR: 'X',
  OUTCOME_REQUIRES_AUTHENTICATORS: 'U',
  OUTCOME_TIME_INACTIVE: 'T',
}
const OUTCOME_OF_LETTER: ReadonlyMap<string, PolicyOutcome> = new Map(
  Object.entries(OUTCOME_LETTERS).map(([outcome, letter]) => [letter, outcome as PolicyOutcome]),
)

/**
 * Records the policies of one version of the organization's policies, in evaluation order, once:
 * a second write of the same version does nothing (the version names exactly one content).
 */
export async function insertPolicySet(
  sql: Sql,
  s: { version: string; orgId: string; policyIds: readonly string[]; now: number },
): Promise<void> {
  await sql.query(
    `INSERT INTO policy_sets (version, organization_id, policy_ids, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (version) DO NOTHING`,
    [s.version, s.orgId, JSON.stringify(s.policyIds), s.now],
  )
}

/** Records the evaluation of a vote already stored (a vote on an activity; its policy set is recorded already). */
export async function setVoteEvaluation(sql: Sql, voteId: string, e: VoteEvaluation): Promise<void> {
  await sql.query('UPDATE votes SET evaluation_id = $2, policy_set = $3, outcomes = $4 WHERE id = $1', [
    voteId,
    e.evaluation_id,
    e.policy_set,
    e.outcomes,
  ])
}

/** True when the policies decided the activity (it has an evaluation): its votes go to them. */
export async function hasPolicyEvaluations(sql: Sql, activityId: string): Promise<boolean> {
  const rows = await sql.query(
    `SELECT 1 FROM votes WHERE activity_id = $1 AND evaluation_id IS NOT NULL
     UNION ALL SELECT 1 FROM policy_evaluations WHERE activity_id = $1 LIMIT 1`,
    [activityId],
  )
  return rows.length > 0
}

const parsed = <T>(v: T | string | null): T | null => (typeof v === 'string' ? (JSON.parse(v) as T) : v)

/**
 * The evaluations recorded for an activity, oldest first: those on its votes, and any recorded
 * as policy_evaluations rows before migration 012.
 */
export async function listPolicyEvaluations(sql: Sql, activityId: string): Promise<PolicyEvaluationRow[]> {
  const rows = await sql.query<
    Omit<PolicyEvaluationRow, 'evaluations'> & {
      evaluations: PolicyEvaluationRow['evaluations'] | string | null
      outcomes: string | null
      policy_ids: string[] | string | null
    }
  >(
    `SELECT id, activity_id, organization_id, vote_id, evaluations, NULL AS outcomes, NULL::jsonb AS policy_ids, created_at, 0 AS src, seq AS ord
       FROM policy_evaluations WHERE activity_id = $1
     UNION ALL
     SELECT v.evaluation_id, v.activity_id, a.quorum_org_id, v.id, NULL::jsonb, v.outcomes, s.policy_ids, v.created_at, 1, 0
       FROM votes v JOIN activities a ON a.id = v.activity_id LEFT JOIN policy_sets s ON s.version = v.policy_set
      WHERE v.activity_id = $1 AND v.evaluation_id IS NOT NULL
     ORDER BY created_at, src, ord, vote_id`,
    [activityId],
  )
  return rows.map((r) => {
    const ids = parsed(r.policy_ids) ?? []
    const evaluations =
      parsed(r.evaluations) ??
      [...(r.outcomes ?? '')].map((letter, i) => ({
        policyId: ids[i] ?? '',
        outcome: OUTCOME_OF_LETTER.get(letter) ?? 'OUTCOME_ERROR',
      }))
    return {
      id: r.id,
      activity_id: r.activity_id,
      organization_id: r.organization_id,
      vote_id: r.vote_id,
      evaluations,
      created_at: Number(r.created_at),
    }
  })
}

/** The wire record (hosted OpenAPI externalactivityv1PolicyEvaluation). */
export function policyEvaluationToWire(row: PolicyEvaluationRow) {
  return {
    id: row.id,
    activityId: row.activity_id,
    organizationId: row.organization_id,
    voteId: row.vote_id,
    policyEvaluations: row.evaluations,
    createdAt: toTimestamp(row.created_at),
  }
}
