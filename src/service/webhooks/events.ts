/**
 * Webhook events: which endpoints hear a change, and the outbox rows written in the transaction of
 * the change itself (a change that rolls back queues nothing; what it queued is handed to the
 * dispatcher by the transaction's after-commit hook). The common path, an organization whose
 * endpoints (and its ancestors') subscribe to nothing, costs a map lookup: the active subscriptions
 * of an organization and its ancestors are cached per instance (`rt.webhooks.targets`) for
 * `TARGETS_TTL_MS`, and dropped at once when this instance changes an endpoint (another instance's
 * change is seen within the TTL).
 */
import { type WebhookFilters, parseWebhookFilters } from '../../api/webhooks.js'
import type { Runtime, WebhookTarget, WebhookTargets } from '../runtime.js'
import { type ActivityRow, activityToWire, type KnownFacts } from '../store/activities.js'
import { getSend, type SendRow } from '../store/sends.js'
import type { Sql, Transaction } from '../store/sql.js'
import { type ClaimedDelivery, insertOutbox, listWebhookTargets } from '../store/webhooks.js'
import { claimLeaseMs } from './dispatcher.js'

/** How long an organization's cached subscriptions are trusted (changes made by other instances). */
export const TARGETS_TTL_MS = 1_000
const MAX_CACHED_ORGS = 10_000

/** An empty subscription cache (one per runtime). */
export function createWebhookTargets(): WebhookTargets {
  return { generation: 0, entries: new Map() }
}

/**
 * The active subscriptions that hear events of `orgId` (its own endpoints' and its ancestors'), read
 * on a miss with `sql`: inside a transaction its own (PGlite has one connection; the database
 * would wait for the transaction).
 */
async function targetsOf(rt: Runtime, sql: Sql, orgId: string): Promise<WebhookTarget[]> {
  const cache = rt.webhooks.targets
  const hit = cache.entries.get(orgId)
  const now = Date.now()
  if (hit && hit.generation === cache.generation && now - hit.at < TARGETS_TTL_MS) return hit.targets
  const generation = cache.generation
  const rows = await listWebhookTargets(sql, orgId)
  const targets: WebhookTarget[] = []
  for (const r of rows) {
    const parsed = parseWebhookFilters(r.event_type, r.filters_json)
    // Stored filters were checked when written; one that no longer parses matches nothing.
    if (parsed.ok) targets.push({ endpointId: r.endpoint_id, url: r.url, eventType: r.event_type, filters: parsed.filters })
  }
  if (cache.entries.size >= MAX_CACHED_ORGS) cache.entries.clear()
  cache.entries.set(orgId, { targets, at: now, generation })
  return targets
}

/** Forget every cached subscription now and again when `tx` ends (an endpoint changed in it). */
export function endpointsChanged(rt: Runtime, tx: Transaction): void {
  const cache = rt.webhooks.targets
  cache.generation++
  // What is cached while the transaction runs may hold its uncommitted endpoints: committed or not, drop it.
  const drop = () => {
    cache.generation++
  }
  tx.afterCommit(drop)
  tx.afterRollback(drop)
}

/** Whether any subscription of `eventType` may hear events of `orgId` (cached; false is the cheap common case). Outside transactions only. */
export async function hasSubscribers(rt: Runtime, orgId: string, eventType: string): Promise<boolean> {
  return (await targetsOf(rt, rt.db, orgId)).some((t) => t.eventType === eventType)
}

/**
 * Writes one event's outbox rows in `tx`. When this instance's dispatcher has room, the rows are
 * written claimed by it (for one lease) and handed to it after the commit: no claim query, no wait.
 * Otherwise the commit wakes it to claim them.
 */
async function queue(
  rt: Runtime,
  tx: Transaction,
  eventType: string,
  orgId: string,
  targets: WebhookTarget[],
  body: string,
): Promise<void> {
  const eventId = crypto.randomUUID()
  const now = rt.now()
  const rows = targets.map((t) => ({ id: crypto.randomUUID(), eventId, endpointId: t.endpointId, organizationId: orgId, eventType, body }))
  const dispatcher = rt.webhooks.dispatcher
  const claim = dispatcher.canTake()
  await insertOutbox(tx, rows, now, claim ? now + claimLeaseMs(rt) : 0)
  if (!claim) {
    tx.afterCommit(() => dispatcher.wake())
    return
  }
  const claimed: ClaimedDelivery[] = rows.map((r, i) => ({
    id: r.id,
    event_id: eventId,
    endpoint_id: r.endpointId,
    organization_id: orgId,
    event_type: eventType,
    body,
    attempts: 0,
    created_at: now,
    url: targets[i]?.url as string,
    endpoint_active: true,
  }))
  tx.afterCommit(() => dispatcher.take(claimed))
}

/** The subscriptions of `eventType` (one per endpoint) that accept the event. */
function matching(targets: WebhookTarget[], eventType: string, accepts: (f: WebhookFilters) => boolean): WebhookTarget[] {
  const byEndpoint = new Map<string, WebhookTarget>()
  for (const t of targets)
    if (t.eventType === eventType && !byEndpoint.has(t.endpointId) && accepts(t.filters)) byEndpoint.set(t.endpointId, t)
  return [...byEndpoint.values()]
}

const within = (list: string[] | undefined, value: string) => list === undefined || list.includes(value)

/**
 * ACTIVITY_UPDATES: queues the activity object (as get_activity shows it) for the endpoints that hear
 * its organization, in `tx`, the transaction that records this status.
 */
export async function queueActivityUpdate(rt: Runtime, tx: Transaction, a: Omit<ActivityRow, 'seq'>, known?: KnownFacts): Promise<void> {
  const matched = matching(
    await targetsOf(rt, tx, a.organization_id),
    'ACTIVITY_UPDATES',
    (f) => within(f.activityTypes, a.type) && within(f.activityStatuses, a.status),
  )
  if (matched.length === 0) return
  const activity = await activityToWire(tx, { ...a, seq: 0 }, undefined, 'query', known)
  await queue(rt, tx, 'ACTIVITY_UPDATES', a.organization_id, matched, JSON.stringify(activity))
}

/**
 * Runs `write` (a statement recording an activity's status outside a transaction) so that its
 * ACTIVITY_UPDATES event commits with it: on `rt.db` directly when nobody listens, else in one
 * transaction with the outbox rows.
 */
export async function withActivityUpdate<T>(rt: Runtime, a: Omit<ActivityRow, 'seq'>, write: (sql: Sql) => Promise<T>): Promise<T> {
  if (!(await hasSubscribers(rt, a.organization_id, 'ACTIVITY_UPDATES'))) return write(rt.db)
  return rt.db.transaction(async (tx) => {
    const out = await write(tx)
    await queueActivityUpdate(rt, tx, a)
    return out
  })
}

/** The SEND_TRANSACTION_STATUS_UPDATES body: get_send_transaction_status's answer with the send's ids. */
export function sendStatusBody(send: SendRow): Record<string, unknown> {
  const error = send.error ? (JSON.parse(send.error) as { message?: string }) : undefined
  return {
    sendTransactionStatusId: send.id,
    organizationId: send.organization_id,
    activityId: send.activity_id,
    caip2: send.caip2,
    txStatus: send.status,
    ...(send.tx_hash ? (send.family === 'evm' ? { eth: { txHash: send.tx_hash } } : { solana: { signature: send.tx_hash } }) : {}),
    ...(error ? { txError: error.message ?? 'failed', error } : {}),
    // The same for every delivery of this status of this send (a status recorded twice repeats it).
    idempotencyKey: `${send.id}:${send.status}`,
    updatedAtMs: String(send.updated_at),
  }
}

/** SEND_TRANSACTION_STATUS_UPDATES for the send's current status, queued in `tx` (which just recorded it). */
export async function queueSendStatus(rt: Runtime, tx: Transaction, orgId: string, sendId: string): Promise<void> {
  const targets = await targetsOf(rt, tx, orgId)
  if (!targets.some((t) => t.eventType === 'SEND_TRANSACTION_STATUS_UPDATES')) return
  const send = await getSend(tx, orgId, sendId)
  if (!send) return
  const matched = matching(
    targets,
    'SEND_TRANSACTION_STATUS_UPDATES',
    (f) => within(f.txStatuses, send.status) && within(f.caip2s, send.caip2),
  )
  if (matched.length === 0) return
  await queue(rt, tx, 'SEND_TRANSACTION_STATUS_UPDATES', orgId, matched, JSON.stringify(sendStatusBody(send)))
}

/**
 * Runs `write` (the tracker recording a send's new status) so that its event commits with it. A
 * write that reports `false` changed nothing and queues nothing.
 */
export async function withSendStatus<T>(
  rt: Runtime,
  send: Pick<SendRow, 'id' | 'organization_id'>,
  write: (sql: Sql) => Promise<T>,
): Promise<T> {
  if (!(await hasSubscribers(rt, send.organization_id, 'SEND_TRANSACTION_STATUS_UPDATES'))) return write(rt.db)
  return rt.db.transaction(async (tx) => {
    const out = await write(tx)
    if (out !== false) await queueSendStatus(rt, tx, send.organization_id, send.id)
    return out
  })
}
