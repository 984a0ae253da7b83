/**
 * Webhooks (migration 016): endpoints with their subscriptions, the outbox of events to deliver and
 * the delivery log. See src/service/webhooks/README.md.
 */
import type { Sql } from './sql.js'

export type WebhookEndpointRow = {
  id: string
  organization_id: string
  url: string
  name: string
  is_active: boolean
  created_at: number
  updated_at: number
}

export type WebhookSubscriptionRow = {
  endpoint_id: string
  position: number
  event_type: string
  filters_json: string
  is_active: boolean
}

export type NewSubscription = { eventType: string; filtersJson: string; isActive: boolean }

export async function insertWebhookEndpoint(
  sql: Sql,
  e: { id: string; orgId: string; url: string; name: string; subscriptions: readonly NewSubscription[]; now: number },
): Promise<void> {
  await sql.query(
    `INSERT INTO webhook_endpoints (id, organization_id, url, name, is_active, created_at, updated_at)
     VALUES ($1, $2, $3, $4, true, $5, $5)`,
    [e.id, e.orgId, e.url, e.name, e.now],
  )
  if (e.subscriptions.length === 0) return
  await sql.query(
    `INSERT INTO webhook_subscriptions (endpoint_id, position, event_type, filters_json, is_active)
     SELECT $1, s.ord - 1, s.event_type, s.filters_json, s.is_active
     FROM unnest($2::text[], $3::text[], $4::boolean[]) WITH ORDINALITY AS s(event_type, filters_json, is_active, ord)`,
    [e.id, e.subscriptions.map((s) => s.eventType), e.subscriptions.map((s) => s.filtersJson), e.subscriptions.map((s) => s.isActive)],
  )
}

/** The organization's endpoint `id`, locked until the transaction ends. */
export async function lockWebhookEndpoint(sql: Sql, orgId: string, id: string): Promise<WebhookEndpointRow | undefined> {
  const [row] = await sql.query<WebhookEndpointRow>('SELECT * FROM webhook_endpoints WHERE id = $1 AND organization_id = $2 FOR UPDATE', [
    id,
    orgId,
  ])
  return row
}

export async function updateWebhookEndpoint(
  sql: Sql,
  id: string,
  u: { url: string; name: string; isActive: boolean; now: number },
): Promise<void> {
  await sql.query('UPDATE webhook_endpoints SET url = $2, name = $3, is_active = $4, updated_at = $5 WHERE id = $1', [
    id,
    u.url,
    u.name,
    u.isActive,
    u.now,
  ])
}

export async function deleteWebhookEndpoint(sql: Sql, id: string): Promise<void> {
  await sql.query('DELETE FROM webhook_endpoints WHERE id = $1', [id])
}

export async function countWebhookEndpoints(sql: Sql, orgId: string): Promise<number> {
  const [row] = await sql.query<{ n: number | string }>('SELECT count(*) AS n FROM webhook_endpoints WHERE organization_id = $1', [orgId])
  return Number(row?.n ?? 0)
}

/** The organization's endpoints, oldest first, with one `ids` filter when given. */
export async function listWebhookEndpoints(sql: Sql, orgId: string, ids?: readonly string[]): Promise<WebhookEndpointRow[]> {
  if (ids)
    return sql.query<WebhookEndpointRow>(
      'SELECT * FROM webhook_endpoints WHERE organization_id = $1 AND id = ANY($2::text[]) ORDER BY created_at, id',
      [orgId, ids],
    )
  return sql.query<WebhookEndpointRow>('SELECT * FROM webhook_endpoints WHERE organization_id = $1 ORDER BY created_at, id', [orgId])
}

/** The subscriptions of these endpoints, in each endpoint's order. */
export async function listWebhookSubscriptions(sql: Sql, endpointIds: readonly string[]): Promise<WebhookSubscriptionRow[]> {
  if (endpointIds.length === 0) return []
  return sql.query<WebhookSubscriptionRow>(
    'SELECT * FROM webhook_subscriptions WHERE endpoint_id = ANY($1::text[]) ORDER BY endpoint_id, position',
    [endpointIds],
  )
}

/** An active subscription of an active endpoint, with the endpoint's organization. */
export type WebhookTargetRow = { endpoint_id: string; organization_id: string; url: string; event_type: string; filters_json: string }

/**
 * The active subscriptions of active endpoints of `orgId` and of every organization above it
 * (a parent's endpoint also hears its sub-organizations' events).
 */
export async function listWebhookTargets(sql: Sql, orgId: string): Promise<WebhookTargetRow[]> {
  return sql.query<WebhookTargetRow>(
    `WITH RECURSIVE up(id, parent_id, depth) AS (
       SELECT id, parent_id, 0 FROM organizations WHERE id = $1
       UNION ALL
       SELECT o.id, o.parent_id, up.depth + 1 FROM organizations o JOIN up ON o.id = up.parent_id WHERE up.depth < 16
     )
     SELECT e.id AS endpoint_id, e.organization_id, e.url, s.event_type, s.filters_json
     FROM up JOIN webhook_endpoints e ON e.organization_id = up.id AND e.is_active
     JOIN webhook_subscriptions s ON s.endpoint_id = e.id AND s.is_active
     ORDER BY e.created_at, e.id, s.position`,
    [orgId],
  )
}

/** Whether `orgId` has a parent organization (billing-scoped event types need one without). */
export async function organizationHasParent(sql: Sql, orgId: string): Promise<boolean> {
  const rows = await sql.query('SELECT 1 FROM organizations WHERE id = $1 AND parent_id IS NOT NULL', [orgId])
  return rows.length > 0
}

export type NewOutboxRow = { id: string; eventId: string; endpointId: string; organizationId: string; eventType: string; body: string }

/**
 * Queues deliveries, due now; `claimedUntil` > now when the writing instance sends them itself right
 * after the commit (no other instance takes them before then).
 */
export async function insertOutbox(sql: Sql, rows: readonly NewOutboxRow[], now: number, claimedUntil = 0): Promise<void> {
  if (rows.length === 0) return
  await sql.query(
    // The rows travel as one JSON text (PGlite's fast path takes text parameters, not arrays).
    `INSERT INTO webhook_outbox (id, event_id, endpoint_id, organization_id, event_type, body, next_attempt_at, claimed_until, created_at, updated_at)
     SELECT u.id, u.event_id, u.endpoint_id, u.organization_id, u.event_type, u.body, $2, $3, $2, $2
     FROM json_to_recordset($1::json) AS u(id text, event_id text, endpoint_id text, organization_id text, event_type text, body text)`,
    [
      JSON.stringify(
        rows.map((r) => ({
          id: r.id,
          event_id: r.eventId,
          endpoint_id: r.endpointId,
          organization_id: r.organizationId,
          event_type: r.eventType,
          body: r.body,
        })),
      ),
      now,
      claimedUntil,
    ],
  )
}

/** A claimed delivery with its endpoint as it is now. */
export type ClaimedDelivery = {
  id: string
  event_id: string
  endpoint_id: string
  organization_id: string
  event_type: string
  body: string
  attempts: number
  /** When the event was queued (in the transaction of its change, just before it committed). */
  created_at: number
  url: string
  endpoint_active: boolean
}

/**
 * Claims up to `limit` due deliveries for `leaseMs` (oldest due first). `SKIP LOCKED` and the claim
 * column keep instances sharing one PostgreSQL off each other's rows.
 */
export async function claimDueDeliveries(sql: Sql, now: number, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
  return sql.query<ClaimedDelivery>(
    `WITH due AS (
       SELECT id FROM webhook_outbox
       WHERE status = 'PENDING' AND next_attempt_at <= $1 AND claimed_until < $1
       ORDER BY next_attempt_at, created_at LIMIT $3
       FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE webhook_outbox o SET claimed_until = $2 FROM due WHERE o.id = due.id
       RETURNING o.id, o.event_id, o.endpoint_id, o.organization_id, o.event_type, o.body, o.attempts, o.created_at
     )
     SELECT c.*, e.url, e.is_active AS endpoint_active FROM claimed c JOIN webhook_endpoints e ON e.id = c.endpoint_id`,
    [now, now + leaseMs, limit],
  )
}

/** The earliest time a pending delivery is due (undefined: none pending). */
export async function nextDeliveryDue(sql: Sql): Promise<number | undefined> {
  const [row] = await sql.query<{ at: string | number | null }>(
    `SELECT min(greatest(next_attempt_at, claimed_until)) AS at FROM webhook_outbox WHERE status = 'PENDING'`,
  )
  return row?.at === null || row?.at === undefined ? undefined : Number(row.at)
}

export type DeliveryAttempt = {
  id: string
  outboxId: string
  endpointId: string
  eventId: string
  eventType: string
  attempt: number
  statusCode: number | null
  durationMs: number
  error: string | null
  outcome: 'DELIVERED' | 'RETRY' | 'DEAD'
  /** When the next attempt is due (RETRY). */
  nextAttemptAt: number
  now: number
}

/** Records attempts in the log and moves their outbox rows on, in one statement. */
export async function recordDeliveryAttempts(sql: Sql, attempts: readonly DeliveryAttempt[]): Promise<void> {
  if (attempts.length === 0) return
  // The attempts travel as one JSON text (PGlite's fast path takes text parameters, not arrays).
  await sql.query(
    `WITH a AS (
       SELECT * FROM json_to_recordset($1::json) AS a(id text, outbox_id text, endpoint_id text, event_id text, event_type text,
         attempt int, status_code int, duration_ms int, error text, outcome text, next_attempt_at bigint, at bigint)
     ), o AS (
       UPDATE webhook_outbox w
       SET status = CASE a.outcome WHEN 'RETRY' THEN 'PENDING' ELSE a.outcome END, attempts = a.attempt,
           next_attempt_at = a.next_attempt_at, claimed_until = 0, updated_at = a.at
       FROM a WHERE w.id = a.outbox_id RETURNING w.id
     )
     INSERT INTO webhook_deliveries (id, outbox_id, endpoint_id, event_id, event_type, attempt, status_code, duration_ms, error, outcome, created_at)
     SELECT a.id, a.outbox_id, a.endpoint_id, a.event_id, a.event_type, a.attempt, a.status_code, a.duration_ms, a.error, a.outcome, a.at
     FROM a JOIN o ON o.id = a.outbox_id`,
    [
      JSON.stringify(
        attempts.map((a) => ({
          id: a.id,
          outbox_id: a.outboxId,
          endpoint_id: a.endpointId,
          event_id: a.eventId,
          event_type: a.eventType,
          attempt: a.attempt,
          status_code: a.statusCode,
          duration_ms: a.durationMs,
          error: a.error,
          outcome: a.outcome,
          next_attempt_at: a.nextAttemptAt,
          at: a.now,
        })),
      ),
    ],
  )
}

export type WebhookDeliveryRow = {
  id: string
  endpoint_id: string
  event_id: string
  event_type: string
  attempt: number
  status_code: number | null
  duration_ms: number
  error: string | null
  outcome: string
  created_at: number
}

/** The delivery log of the organization's endpoints (or one of them), newest first. */
export async function listWebhookDeliveries(
  sql: Sql,
  orgId: string,
  f: { endpointId?: string | undefined; limit: number },
): Promise<WebhookDeliveryRow[]> {
  return sql.query<WebhookDeliveryRow>(
    `SELECT d.id, d.endpoint_id, d.event_id, d.event_type, d.attempt, d.status_code, d.duration_ms, d.error, d.outcome, d.created_at
     FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
     WHERE e.organization_id = $1 AND ($2::text IS NULL OR d.endpoint_id = $2)
     ORDER BY d.created_at DESC, d.attempt DESC, d.id LIMIT $3`,
    [orgId, f.endpointId ?? null, f.limit],
  )
}

/** How many deliveries of the organization's endpoints are queued or done, by status (tests, ops). */
export async function countOutbox(sql: Sql, orgId: string): Promise<Record<string, number>> {
  const rows = await sql.query<{ status: string; n: string | number }>(
    `SELECT o.status, count(*) AS n FROM webhook_outbox o JOIN webhook_endpoints e ON e.id = o.endpoint_id
     WHERE e.organization_id = $1 GROUP BY o.status`,
    [orgId],
  )
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]))
}

export type WebhookSigningKeyRow = { key_id: string; public_key: string; private_key_enc: string }

/** Stores a signing key unless one exists already: the first instance to start wins. */
export async function insertWebhookSigningKeyIfNone(
  sql: Sql,
  k: { keyId: string; publicKey: string; privateKeyEnc: string; createdAt: number },
): Promise<void> {
  await sql.query(
    `INSERT INTO webhook_signing_keys (key_id, public_key, private_key_enc, created_at)
     SELECT $1, $2, $3, $4 WHERE NOT EXISTS (SELECT 1 FROM webhook_signing_keys)
     ON CONFLICT (key_id) DO NOTHING`,
    [k.keyId, k.publicKey, k.privateKeyEnc, k.createdAt],
  )
}

/** The signing keys, oldest first (there is one; the oldest signs and is published). */
export async function listWebhookSigningKeys(sql: Sql): Promise<WebhookSigningKeyRow[]> {
  return sql.query<WebhookSigningKeyRow>('SELECT key_id, public_key, private_key_enc FROM webhook_signing_keys ORDER BY created_at, key_id')
}
