/** MFA policies (migration 027): per-user second-factor rules, and the steps a waiting activity needs. */
import type { Sql } from './sql.js'

/** One acceptable method of a step, as stored (the wire's v1AuthenticationMethod). */
export type StoredMethod = { type: string; id?: string }
/** One step: any method satisfies it. */
export type StoredStep = { any: StoredMethod[] }

export type MfaPolicyRow = {
  id: string
  organization_id: string
  user_id: string
  name: string
  condition: string
  required_methods: StoredStep[] | string
  eval_order: number | string
  notes: string | null
  created_at: number | string
  updated_at: number | string
}

export type ActivityMfaRow = {
  activity_id: string
  organization_id: string
  user_id: string
  mfa_policy_id: string
  required_methods: StoredStep[] | string
  proven: StoredMethod[] | string
  created_at: number | string
}

/** The JSON column as a value (some drivers return jsonb as text). */
export function stepsOf(v: StoredStep[] | string): StoredStep[] {
  return typeof v === 'string' ? (JSON.parse(v) as StoredStep[]) : v
}

/** The `proven` column as a value. */
export function provenOf(v: StoredMethod[] | string): StoredMethod[] {
  return typeof v === 'string' ? (JSON.parse(v) as StoredMethod[]) : v
}

export async function insertMfaPolicy(
  sql: Sql,
  p: {
    id: string
    organizationId: string
    userId: string
    name: string
    condition: string
    steps: StoredStep[]
    order: number
    notes: string | null
    now: number
  },
): Promise<void> {
  await sql.query(
    `INSERT INTO mfa_policies (id, organization_id, user_id, name, condition, required_methods, eval_order, notes, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $9)`,
    [p.id, p.organizationId, p.userId, p.name, p.condition, JSON.stringify(p.steps), p.order, p.notes, p.now],
  )
}

/** Changes the given fields; false when the user has no such policy. */
export async function updateMfaPolicy(
  sql: Sql,
  p: {
    id: string
    organizationId: string
    userId: string
    name?: string | undefined
    condition?: string | undefined
    steps?: StoredStep[] | undefined
    order?: number | undefined
    notes?: string | undefined
    now: number
  },
): Promise<boolean> {
  const rows = await sql.query(
    `UPDATE mfa_policies SET
       name = COALESCE($4, name), condition = COALESCE($5, condition),
       required_methods = COALESCE($6::jsonb, required_methods), eval_order = COALESCE($7, eval_order),
       notes = COALESCE($8, notes), updated_at = $9
     WHERE organization_id = $1 AND user_id = $2 AND id = $3 RETURNING id`,
    [
      p.organizationId,
      p.userId,
      p.id,
      p.name ?? null,
      p.condition ?? null,
      p.steps ? JSON.stringify(p.steps) : null,
      p.order ?? null,
      p.notes ?? null,
      p.now,
    ],
  )
  return rows.length > 0
}

/** Deletes one; false when the user has no such policy. */
export async function deleteMfaPolicy(sql: Sql, organizationId: string, userId: string, id: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM mfa_policies WHERE organization_id = $1 AND user_id = $2 AND id = $3 RETURNING id', [
    organizationId,
    userId,
    id,
  ])
  return rows.length > 0
}

export async function getMfaPolicy(sql: Sql, organizationId: string, userId: string, id: string): Promise<MfaPolicyRow | undefined> {
  const [row] = await sql.query<MfaPolicyRow>('SELECT * FROM mfa_policies WHERE organization_id = $1 AND user_id = $2 AND id = $3', [
    organizationId,
    userId,
    id,
  ])
  return row
}

/** The user's policies in evaluation order (order, then oldest first). */
export async function listMfaPolicies(sql: Sql, organizationId: string, userId: string): Promise<MfaPolicyRow[]> {
  return sql.query<MfaPolicyRow>(
    'SELECT * FROM mfa_policies WHERE organization_id = $1 AND user_id = $2 ORDER BY eval_order, created_at, id',
    [organizationId, userId],
  )
}

/** Policies of several users of one organization, in evaluation order (for users' `mfaPolicies`). */
export async function listMfaPoliciesOfUsers(sql: Sql, organizationId: string, userIds: readonly string[]): Promise<MfaPolicyRow[]> {
  if (userIds.length === 0) return []
  return sql.query<MfaPolicyRow>(
    'SELECT * FROM mfa_policies WHERE organization_id = $1 AND user_id = ANY($2::text[]) ORDER BY eval_order, created_at, id',
    [organizationId, [...userIds]],
  )
}

export async function insertActivityMfa(
  sql: Sql,
  r: {
    activityId: string
    organizationId: string
    userId: string
    mfaPolicyId: string
    steps: StoredStep[]
    proven: StoredMethod[]
    now: number
  },
): Promise<void> {
  await sql.query(
    `INSERT INTO activity_mfa (activity_id, organization_id, user_id, mfa_policy_id, required_methods, proven, created_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7)`,
    [r.activityId, r.organizationId, r.userId, r.mfaPolicyId, JSON.stringify(r.steps), JSON.stringify(r.proven), r.now],
  )
}

/** Records the credentials proven so far on a waiting activity. */
export async function setActivityMfaProven(sql: Sql, activityId: string, proven: StoredMethod[]): Promise<void> {
  await sql.query('UPDATE activity_mfa SET proven = $2::jsonb WHERE activity_id = $1', [activityId, JSON.stringify(proven)])
}

export async function getActivityMfa(sql: Sql, activityId: string): Promise<ActivityMfaRow | undefined> {
  const [row] = await sql.query<ActivityMfaRow>('SELECT * FROM activity_mfa WHERE activity_id = $1', [activityId])
  return row
}
