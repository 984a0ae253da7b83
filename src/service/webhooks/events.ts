/**
 * Webhook events: which endpoints hear a change, and the outbox rows written in the transaction of
 * the change itself (a change that rolls back queues nothing). The common path, an organization
 * whose endpoints (and its ancestors') subscribe to nothing, costs a map lookup: the active
 * subscriptions of an organization and its ancestors are cached per instance for `TARGETS_TTL_MS`,
 * and dropped at once when this instance changes an endpoint (another instance's change is seen
 * within the TTL).
 */
import { type WebhookFilters, parseWebhookFilters } from '../../api/webhooks.js'
import type { Runtime } from '../runtime.js'
import { type ActivityRow, activityToWire, type KnownFacts } from '../store/activities.js'
import { getSend, type SendRow } from '../store/sends.js'
import type { Sql } from '../store/sql.js'
import { insertOutbox, listWebhookTargets } from '../store/webhooks.js'
import { wakeWebhookDispatcher } from './dispatcher.js'

/** How long an organization's cached subscriptions are trusted (changes made by other instances). */
export const TARGETS_TTL_MS = 1_000
const MAX_CACHED_ORGS = 10_000

type Target = { endpointId: string; eventType: string; filters: WebhookFilters }
type TargetCache = { generation: number; entries: Map<string, { targets: Target[]; at: number; generation: number }> }

const caches = new WeakMap<Runtime, TargetCache>()
/** Transactions that queued deliveries or changed endpoints: acted on once they commit. */
const pendingByTx = new WeakMap<Sql, { queued: boolean; endpointsChanged: boolean }>()

function cacheOf(rt: Runtime): TargetCache {
  let c = caches.get(rt)
  if (!c) {
    c = { generation: 0, entries: new Map() }
    caches.set(rt, c)
  }
  return c
}

/**
 * The active subscriptions that hear events of `orgId` (its own endpoints' and its ancestors'), read
 * on a miss with `sql`: inside a transaction its own (PGlite has one connection; the database
 * would wait for the transaction).
 */
async function targetsOf(rt: Runtime, sql: Sql, orgId: string): Promise<Target[]> {
  const cache = cacheOf(rt)
  const hit = cache.entries.get(orgId)
  const now = Date.now()
  if (hit && hit.generation === cache.generation && now - hit.at < TARGETS_TTL_MS) return hit.targets
  const generation = cache.generation
  const rows = await listWebhookTargets(sql, orgId)
  const targets: Target[] = []
  for (const r of rows) {
    const parsed = parseWebhookFilters(r.event_type, r.filters_json)
    // Stored filters were checked when written; one that no longer parses matches nothing.
    if (parsed.ok) targets.push({ endpointId: r.endpoint_id, eventType: r.event_type, filters: parsed.filters })
  }
  if (cache.entries.size >= MAX_CACHED_ORGS) cache.entries.clear()
  cache.entries.set(orgId, { targets, at: now, generation })
  return targets
}

/** Forget every cached subscription now and again when `tx` commits (an endpoint changed in it). */
export function endpointsChanged(rt: Runtime, tx: Sql): void {
  cacheOf(rt).generation++
  pendingOf(tx).endpointsChanged = true
}

function pendingOf(tx: Sql) {
  let p = pendingByTx.get(tx)
  if (!p) {
    p = { queued: false, endpointsChanged: false }
    pendingByTx.set(tx, p)
  }
  return p
}

/**
 * `rt.db.transaction(fn)`, then, once it committed, wakes the dispatcher if `fn` queued deliveries
 * and drops cached subscriptions if it changed endpoints.
 */
export async function transactionWithEvents<T>(rt: Runtime, fn: (tx: Sql) => Promise<T>): Promise<T> {
  let used: Sql | undefined
  try {
    const out = await rt.db.transaction((tx) => {
      used = tx
      return fn(tx)
    })
    if (used && pendingByTx.get(used)?.queued) wakeWebhookDispatcher(rt)
    return out
  } finally {
    // What was cached while the transaction ran may hold its uncommitted endpoints: committed or not, drop it.
    if (used && pendingByTx.get(used)?.endpointsChanged) cacheOf(rt).generation++
  }
}

/** Whether any subscription of `eventType` may hear events of `orgId` (cached; false is the cheap common case). Outside transactions only. */
export async function hasSubscribers(rt: Runtime, orgId: string, eventType: string): Promise<boolean> {
  return (await targetsOf(rt, rt.db, orgId)).some((t) => t.eventType === eventType)
}

async function queue(rt: Runtime, tx: Sql, eventType: string, orgId: string, endpointIds: string[], body: string): Promise<void> {
  const eventId = crypto.randomUUID()
  await insertOutbox(
    tx,
    endpointIds.map((endpointId) => ({ id: crypto.randomUUID(), eventId, endpointId, organizationId: orgId, eventType, body })),
    rt.now(),
  )
  pendingOf(tx).queued = true
}

/** Endpoints (once each) whose subscriptions of `eventType` accept the event. */
function matching(targets: Target[], eventType: string, accepts: (f: WebhookFilters) => boolean): string[] {
  const ids = new Set<string>()
  for (const t of targets) if (t.eventType === eventType && accepts(t.filters)) ids.add(t.endpointId)
  return [...ids]
}

const within = (list: string[] | undefined, value: string) => list === undefined || list.includes(value)

/**
 * ACTIVITY_UPDATES: queues the activity object (as get_activity shows it) for the endpoints that hear
 * its organization, in `tx`, the transaction that records this status.
 */
export async function queueActivityUpdate(rt: Runtime, tx: Sql, a: Omit<ActivityRow, 'seq'>, known?: KnownFacts): Promise<void> {
  const endpointIds = matching(
    await targetsOf(rt, tx, a.organization_id),
    'ACTIVITY_UPDATES',
    (f) => within(f.activityTypes, a.type) && within(f.activityStatuses, a.status),
  )
  if (endpointIds.length === 0) return
  const activity = await activityToWire(tx, { ...a, seq: 0 }, undefined, 'query', known)
  await queue(rt, tx, 'ACTIVITY_UPDATES', a.organization_id, endpointIds, JSON.stringify(activity))
}

/**
 * Runs `write` (a statement recording an activity's status outside a transaction) so that its
 * ACTIVITY_UPDATES event commits with it: on `rt.db` directly when nobody listens, else in one
 * transaction with the outbox rows.
 */
export async function withActivityUpdate<T>(rt: Runtime, a: Omit<ActivityRow, 'seq'>, write: (sql: Sql) => Promise<T>): Promise<T> {
  if (!(await hasSubscribers(rt, a.organization_id, 'ACTIVITY_UPDATES'))) return write(rt.db)
  return transactionWithEvents(rt, async (tx) => {
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
export async function queueSendStatus(rt: Runtime, tx: Sql, orgId: string, sendId: string): Promise<void> {
  const targets = await targetsOf(rt, tx, orgId)
  if (!targets.some((t) => t.eventType === 'SEND_TRANSACTION_STATUS_UPDATES')) return
  const send = await getSend(tx, orgId, sendId)
  if (!send) return
  const endpointIds = matching(
    targets,
    'SEND_TRANSACTION_STATUS_UPDATES',
    (f) => within(f.txStatuses, send.status) && within(f.caip2s, send.caip2),
  )
  if (endpointIds.length === 0) return
  await queue(rt, tx, 'SEND_TRANSACTION_STATUS_UPDATES', orgId, endpointIds, JSON.stringify(sendStatusBody(send)))
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
  return transactionWithEvents(rt, async (tx) => {
    const out = await write(tx)
    if (out !== false) await queueSendStatus(rt, tx, send.organization_id, send.id)
    return out
  })
}
