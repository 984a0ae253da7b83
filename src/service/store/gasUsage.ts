/**
 * Gas sponsorship records (migration 021): each organization's usage config, and one row per
 * sponsored send admitted against it (its estimate while in flight, the fee once settled).
 * Money is integer micro-USD.
 */
import type { Sql } from './sql.js'

export type GasUsageConfigRow = {
  id: string
  organization_id: string
  org_window_limit_micro_usd: bigint
  sub_org_window_limit_micro_usd: bigint
  window_minutes: number
  enabled: boolean
}

type RawConfig = Omit<GasUsageConfigRow, 'org_window_limit_micro_usd' | 'sub_org_window_limit_micro_usd' | 'window_minutes'> & {
  org_window_limit_micro_usd: string | number | bigint
  sub_org_window_limit_micro_usd: string | number | bigint
  window_minutes: string | number
}

const configOf = (r: RawConfig | undefined): GasUsageConfigRow | undefined =>
  r && {
    id: r.id,
    organization_id: r.organization_id,
    org_window_limit_micro_usd: BigInt(r.org_window_limit_micro_usd),
    sub_org_window_limit_micro_usd: BigInt(r.sub_org_window_limit_micro_usd),
    window_minutes: Number(r.window_minutes),
    enabled: r.enabled,
  }

const CONFIG_COLUMNS = 'id, organization_id, org_window_limit_micro_usd, sub_org_window_limit_micro_usd, window_minutes, enabled'

/** The organization's config; with `lock`, its row stays locked (FOR UPDATE) until the transaction ends. */
export async function getGasUsageConfig(sql: Sql, orgId: string, lock = false): Promise<GasUsageConfigRow | undefined> {
  const [row] = await sql.query<RawConfig>(
    `SELECT ${CONFIG_COLUMNS} FROM gas_usage_configs WHERE organization_id = $1${lock ? ' FOR UPDATE' : ''}`,
    [orgId],
  )
  return configOf(row)
}

export type GasUsageConfigInput = {
  orgLimitMicroUsd: bigint
  subOrgLimitMicroUsd: bigint
  windowMinutes: number
  enabled: boolean
}

/** Creates or replaces the organization's config; returns its id (kept across updates). */
export async function upsertGasUsageConfig(sql: Sql, orgId: string, c: GasUsageConfigInput, newId: string, now: number): Promise<string> {
  const [row] = await sql.query<{ id: string }>(
    `INSERT INTO gas_usage_configs
       (id, organization_id, org_window_limit_micro_usd, sub_org_window_limit_micro_usd, window_minutes, enabled, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
     ON CONFLICT (organization_id) DO UPDATE SET
       org_window_limit_micro_usd = EXCLUDED.org_window_limit_micro_usd,
       sub_org_window_limit_micro_usd = EXCLUDED.sub_org_window_limit_micro_usd,
       window_minutes = EXCLUDED.window_minutes,
       enabled = EXCLUDED.enabled,
       updated_at = EXCLUDED.updated_at
     RETURNING id`,
    [newId, orgId, c.orgLimitMicroUsd.toString(), c.subOrgLimitMicroUsd.toString(), c.windowMinutes, c.enabled, now],
  )
  return (row as { id: string }).id
}

/** Inserts the config only when the organization has none (the dev default); true when inserted. */
export async function insertGasUsageConfigIfAbsent(
  sql: Sql,
  orgId: string,
  c: GasUsageConfigInput,
  newId: string,
  now: number,
): Promise<boolean> {
  const rows = await sql.query(
    `INSERT INTO gas_usage_configs
       (id, organization_id, org_window_limit_micro_usd, sub_org_window_limit_micro_usd, window_minutes, enabled, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
     ON CONFLICT (organization_id) DO NOTHING RETURNING id`,
    [newId, orgId, c.orgLimitMicroUsd.toString(), c.subOrgLimitMicroUsd.toString(), c.windowMinutes, c.enabled, now],
  )
  return rows.length > 0
}

/**
 * Micro-USD counted in the window starting at `since`: settled fees settled since then, plus the
 * estimates of sends admitted since then and not settled yet. Scoped to the sends of `orgId`
 * (`scope: 'organization'`) or to every send billed to it (`scope: 'billing'`).
 */
export async function sponsoredUsageSince(
  sql: Sql,
  orgId: string,
  scope: 'organization' | 'billing',
  since: number,
  exceptSendId?: string,
): Promise<bigint> {
  const column = scope === 'billing' ? 'billing_organization_id' : 'organization_id'
  const [row] = await sql.query<{ total: string | null }>(
    `SELECT COALESCE(SUM(COALESCE(fee_micro_usd, estimate_micro_usd)), 0)::text AS total
       FROM sponsored_sends
      WHERE ${column} = $1 AND COALESCE(settled_at, admitted_at) >= $2 AND send_id IS DISTINCT FROM $3`,
    [orgId, since, exceptSendId ?? null],
  )
  return BigInt(row?.total ?? '0')
}

export type NewSponsoredSend = {
  sendId: string
  organizationId: string
  billingOrganizationId: string
  caip2: string
  nativeUsd: string
  nativeDecimals: number
  estimateMicroUsd: bigint
}

export async function insertSponsoredSend(sql: Sql, s: NewSponsoredSend, now: number): Promise<void> {
  await sql.query(
    `INSERT INTO sponsored_sends
       (send_id, organization_id, billing_organization_id, caip2, native_usd, native_decimals, estimate_micro_usd, admitted_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [s.sendId, s.organizationId, s.billingOrganizationId, s.caip2, s.nativeUsd, s.nativeDecimals, s.estimateMicroUsd.toString(), now],
  )
}

/** The admitted send's price and decimals, for converting its fee; undefined when it was never admitted. */
export async function sponsoredSendPrice(sql: Sql, sendId: string): Promise<{ nativeUsd: string; nativeDecimals: number } | undefined> {
  const [row] = await sql.query<{ native_usd: string; native_decimals: number }>(
    'SELECT native_usd, native_decimals FROM sponsored_sends WHERE send_id = $1',
    [sendId],
  )
  return row && { nativeUsd: row.native_usd, nativeDecimals: Number(row.native_decimals) }
}

/** Records the fee the sponsor paid (once: a later settlement of the same send changes nothing). */
export async function settleSponsoredSend(sql: Sql, sendId: string, feeWei: bigint, feeMicroUsd: bigint, at: number): Promise<void> {
  await sql.query(
    'UPDATE sponsored_sends SET fee_wei = $2, fee_micro_usd = $3, settled_at = $4 WHERE send_id = $1 AND settled_at IS NULL',
    [sendId, feeWei.toString(), feeMicroUsd.toString(), at],
  )
}

/** The admitted sponsored send `sendId` (who sends it, who is billed, its price); undefined when it was never admitted. */
export async function getSponsoredSend(
  sql: Sql,
  sendId: string,
): Promise<(Omit<NewSponsoredSend, 'estimateMicroUsd'> & { settled: boolean }) | undefined> {
  const [row] = await sql.query<{
    send_id: string
    organization_id: string
    billing_organization_id: string
    caip2: string
    native_usd: string
    native_decimals: number
    settled_at: string | number | null
  }>(
    'SELECT send_id, organization_id, billing_organization_id, caip2, native_usd, native_decimals, settled_at FROM sponsored_sends WHERE send_id = $1',
    [sendId],
  )
  return (
    row && {
      sendId: row.send_id,
      organizationId: row.organization_id,
      billingOrganizationId: row.billing_organization_id,
      caip2: row.caip2,
      nativeUsd: row.native_usd,
      nativeDecimals: Number(row.native_decimals),
      settled: row.settled_at !== null,
    }
  )
}

/** Sets what the unsettled send `sendId` holds of the budget (the most its transaction can cost) as of `now`. */
export async function reserveSponsoredSend(sql: Sql, sendId: string, reservedMicroUsd: bigint, now: number): Promise<void> {
  await sql.query('UPDATE sponsored_sends SET estimate_micro_usd = $2, admitted_at = $3 WHERE send_id = $1 AND settled_at IS NULL', [
    sendId,
    reservedMicroUsd.toString(),
    now,
  ])
}
