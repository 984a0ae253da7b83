/**
 * Policies (issue 14): an organization's policies as written, and the recorded evaluations of each
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

export type PolicyEvaluationRow = {
  seq?: number | string
  id: string
  activity_id: string
  organization_id: string
  vote_id: string
  evaluations: Array<{ policyId: string; outcome: PolicyOutcome }>
  created_at: number
}

/** Records one evaluation (the engine, in the activity's or the vote's transaction). */
export async function insertPolicyEvaluation(sql: Sql, e: PolicyEvaluationRow): Promise<void> {
  await sql.query(
    `INSERT INTO policy_evaluations (id, activity_id, organization_id, vote_id, evaluations, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [e.id, e.activity_id, e.organization_id, e.vote_id, JSON.stringify(e.evaluations), e.created_at],
  )
}

/** The evaluations recorded for an activity, oldest first. */
export async function listPolicyEvaluations(sql: Sql, activityId: string): Promise<PolicyEvaluationRow[]> {
  const rows = await sql.query<PolicyEvaluationRow>('SELECT * FROM policy_evaluations WHERE activity_id = $1 ORDER BY seq', [activityId])
  return rows.map((r) => ({
    ...r,
    evaluations: typeof r.evaluations === 'string' ? JSON.parse(r.evaluations) : r.evaluations,
    created_at: Number(r.created_at),
  }))
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
