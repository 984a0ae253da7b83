/** Velocity controls and what they counted (migration 028). */
import { type PageOptions, readPage } from './page.js'
import type { Sql } from './sql.js'

export type VelocityControlRow = {
  id: string
  organization_id: string
  identifier: string
  name: string
  data_source: unknown
  aggregation: unknown
  created_at: number | string
  updated_at: number | string
}

const json = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v)

/** The row with its JSON columns parsed (drivers differ on jsonb). */
function parsed(r: VelocityControlRow): VelocityControlRow {
  return { ...r, data_source: json(r.data_source), aggregation: json(r.aggregation) }
}

/** Stores a new control. */
export async function insertVelocityControl(
  sql: Sql,
  c: { id: string; organizationId: string; identifier: string; name: string; dataSource: unknown; aggregation: unknown; now: number },
): Promise<void> {
  await sql.query(
    `INSERT INTO velocity_controls (id, organization_id, identifier, name, data_source, aggregation, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $7)`,
    [c.id, c.organizationId, c.identifier, c.name, JSON.stringify(c.dataSource), JSON.stringify(c.aggregation), c.now],
  )
}

/** True when the organization has a control with this identifier (identifiers are unique per organization). */
export async function velocityIdentifierTaken(sql: Sql, organizationId: string, identifier: string): Promise<boolean> {
  const rows = await sql.query('SELECT 1 FROM velocity_controls WHERE organization_id = $1 AND identifier = $2', [
    organizationId,
    identifier,
  ])
  return rows.length > 0
}

/** One control of the organization; undefined when it has none with this id. */
export async function getVelocityControl(sql: Sql, organizationId: string, id: string): Promise<VelocityControlRow | undefined> {
  const [row] = await sql.query<VelocityControlRow>('SELECT * FROM velocity_controls WHERE organization_id = $1 AND id = $2', [
    organizationId,
    id,
  ])
  return row && parsed(row)
}

/** Deletes a control (its counted spends cascade); false when the organization has none with this id. */
export async function deleteVelocityControl(sql: Sql, organizationId: string, id: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM velocity_controls WHERE organization_id = $1 AND id = $2 RETURNING id', [organizationId, id])
  return rows.length > 0
}

/** A page of the organization's controls, oldest first (cursors are control ids). */
export async function listVelocityControls(sql: Sql, organizationId: string, page: PageOptions | undefined): Promise<VelocityControlRow[]> {
  const rows = await readPage<VelocityControlRow>(
    sql,
    { select: 'SELECT v.* FROM velocity_controls v', where: ['v.organization_id = $1'], params: [organizationId] },
    {
      columns: ['v.created_at', 'v.id'],
      order: 'ASC',
      noun: 'velocity control',
      keyOf: async (id) => {
        const [row] = await sql.query<{ created_at: number; id: string }>(
          'SELECT created_at, id FROM velocity_controls WHERE id = $1 AND organization_id = $2',
          [id, organizationId],
        )
        return row && [row.created_at, row.id]
      },
    },
    page,
  )
  return rows.map(parsed)
}

/** Every control of the organization (the enforcer filters those that measure an activity). */
export async function allVelocityControls(sql: Sql, organizationId: string): Promise<VelocityControlRow[]> {
  const rows = await sql.query<VelocityControlRow>('SELECT * FROM velocity_controls WHERE organization_id = $1 ORDER BY id', [
    organizationId,
  ])
  return rows.map(parsed)
}

/**
 * Locks the control's row until the transaction ends (`FOR UPDATE`): every activity counting
 * against it, on any instance sharing the database, reads and adds to its window one at a time.
 * False when the control was deleted meanwhile.
 */
export async function lockVelocityControl(tx: Sql, id: string): Promise<boolean> {
  const rows = await tx.query('SELECT id FROM velocity_controls WHERE id = $1 FOR UPDATE', [id])
  return rows.length > 0
}

/** What committed activities counted against the control in `bucket` since `since` (ms; null: ever), in 10^-18 units. */
export async function velocitySpent(tx: Sql, controlId: string, bucket: string, since: number | null): Promise<bigint> {
  const [row] = await tx.query<{ total: string }>(
    `SELECT COALESCE(sum(amount), 0)::text AS total FROM velocity_spends
     WHERE control_id = $1 AND bucket = $2${since === null ? '' : ' AND created_at > $3'}`,
    since === null ? [controlId, bucket] : [controlId, bucket, since],
  )
  return BigInt(row?.total ?? '0')
}

/** Forgets what the control counted at or before `until` (ms): past its window, it never counts again. */
export async function pruneVelocitySpends(tx: Sql, controlId: string, until: number): Promise<void> {
  await tx.query('DELETE FROM velocity_spends WHERE control_id = $1 AND created_at <= $2', [controlId, until])
}

/** Counts `amount` (10^-18 units) of the activity against the control, in the activity's transaction. */
export async function recordVelocitySpend(
  tx: Sql,
  s: { controlId: string; organizationId: string; bucket: string; activityId: string; amount: bigint; now: number },
): Promise<void> {
  await tx.query(
    `INSERT INTO velocity_spends (control_id, organization_id, bucket, activity_id, amount, created_at)
     VALUES ($1, $2, $3, $4, $5::numeric, $6)
     ON CONFLICT (control_id, activity_id) DO UPDATE SET amount = velocity_spends.amount + EXCLUDED.amount`,
    [s.controlId, s.organizationId, s.bucket, s.activityId, s.amount.toString(), s.now],
  )
}
