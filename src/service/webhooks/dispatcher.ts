/**
 * The webhook dispatcher (one per service instance, started and stopped with it): claims due rows
 * of the outbox (`FOR UPDATE SKIP LOCKED` plus a claim lease, so instances sharing one PostgreSQL
 * never send the same row at once), POSTs each signed body with a timeout, records every attempt in
 * the delivery log, and marks the row DELIVERED (2xx), due again after an exponential backoff with
 * jitter, or DEAD after the last attempt. Rows this instance queued come claimed by it already
 * (`events.ts`) and are handed over right after their commit, with no query; otherwise it looks once
 * a second (rows of other instances or of a crashed one, retries that came due). Attempts finishing
 * while one write of the log runs are written together in the next.
 */
import { request as httpRequest, Agent as HttpAgent } from 'node:http'
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https'
import { isIP } from 'node:net'
import { utf8Encode } from '../../crypto/encoding.js'
import type { Runtime, WebhookDispatcher, WebhookSigner } from '../runtime.js'
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  type DeliveryAttempt,
  nextDeliveryDue,
  recordDeliveryAttempts,
} from '../store/webhooks.js'
import { SIGNATURE_ALGORITHM, SIGNATURE_VERSION } from './signing.js'
import { guardedLookup, hostOf, isNonPublicAddress, parseWebhookUrl } from './urls.js'

/** The `X-Turnkey-Webhook-Version` this service sends. */
export const WEBHOOK_VERSION = 'v2'
/** Deliveries in flight per instance. */
const MAX_IN_FLIGHT = 16
/** Rows handed over but not yet sent beyond which new rows are left for claiming instead. */
const MAX_BACKLOG = 256
const IDLE_POLL_MS = 1_000
/** Log rows written per statement. */
const RECORD_BATCH = 200

/** How long a claim keeps other instances off a row: one attempt with its timeout, and room to record it. */
export function claimLeaseMs(rt: Runtime): number {
  return rt.config.webhooks.timeoutMs + 10_000
}

/** The delay before attempt `attempt + 1`: `base * 2^(attempt-1)`, capped, ±20 % jitter. */
export function backoffMs(attempt: number, base: number, max: number, random: () => number = Math.random): number {
  const raw = Math.min(max, base * 2 ** Math.min(attempt - 1, 30))
  return Math.max(1, Math.round(raw * (0.8 + 0.4 * random())))
}

/** An error of a delivery attempt as the log keeps it: a code and a short reason, never the URL or body. */
function describeFailure(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown }
  if (err?.code === 'EWEBHOOKDEST') return 'destination refused: resolves to a loopback or private address'
  if (typeof err?.code === 'string' && /^[A-Z0-9_]{2,32}$/.test(err.code)) return `connection failed: ${err.code}`
  if (err instanceof Error && err.message === 'timeout') return 'timed out'
  return 'connection failed'
}

/** The runtime's dispatcher (one per service instance), idle until started; stopped, it stays stopped. */
export function createWebhookDispatcher(): WebhookDispatcher {
  let running: Omit<WebhookDispatcher, 'start'> | undefined
  let stopped = false
  return {
    start(rt) {
      if (!stopped) running ??= startDispatching(rt, rt.webhooks.signer)
    },
    wake: () => running?.wake(),
    canTake: () => running?.canTake() === true,
    take: (deliveries) => running?.take(deliveries),
    async stop() {
      stopped = true
      await running?.stop()
    },
  }
}

function startDispatching(rt: Runtime, signer: WebhookSigner): Omit<WebhookDispatcher, 'start'> {
  const cfg = rt.config.webhooks
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) }
  const inFlight = new Set<Promise<void>>()
  /** Claimed rows waiting for a free slot. */
  const backlog: Array<{ d: ClaimedDelivery; claimedUntil: number }> = []
  let stopped = false
  let claiming = false
  let again = false
  /** The last claim filled every free slot: more may be due as soon as one frees. */
  let maybeMore = false
  let timer: NodeJS.Timeout | undefined
  let timerAt = Number.POSITIVE_INFINITY

  /** Looks again at `at` (ms since the epoch) unless a look is already planned sooner. */
  function lookAt(at: number) {
    if (stopped) return
    const now = Date.now()
    if (timer && timerAt <= at && timerAt >= now) return
    if (timer) clearTimeout(timer)
    timerAt = at
    timer = setTimeout(
      () => {
        timer = undefined
        timerAt = Number.POSITIVE_INFINITY
        pump()
      },
      Math.max(0, at - now),
    )
    timer.unref()
  }

  function pump() {
    if (stopped) return
    if (claiming) {
      again = true
      return
    }
    claiming = true
    void (async () => {
      try {
        do {
          again = false
          const room = MAX_IN_FLIGHT - inFlight.size - backlog.length
          if (room <= 0) break
          const batch = await claimDueDeliveries(rt.db, rt.now(), claimLeaseMs(rt), room)
          maybeMore = batch.length === room
          const claimedUntil = rt.now() + claimLeaseMs(rt)
          for (const d of batch) start(d, claimedUntil)
        } while (again && !stopped)
        if (!stopped && inFlight.size === 0) {
          const due = await nextDeliveryDue(rt.db)
          // `due` is on the service clock (`rt.now`); timers run on the wall clock.
          const wait = due === undefined ? IDLE_POLL_MS : Math.min(Math.max(due - rt.now(), 0), IDLE_POLL_MS)
          lookAt(Date.now() + wait)
        } else lookAt(Date.now() + IDLE_POLL_MS)
      } catch (e) {
        rt.log.warn('webhook dispatcher paused', { errorName: (e as Error).name })
        lookAt(Date.now() + IDLE_POLL_MS)
      } finally {
        claiming = false
        if (again) pump()
      }
    })()
  }

  /**
   * Sends `d` now when a slot is free, else when one frees. A row whose claim would run out before
   * its attempt could end is left alone: it is due again, for whichever instance claims it.
   */
  function start(d: ClaimedDelivery, claimedUntil: number) {
    if (inFlight.size >= MAX_IN_FLIGHT) {
      backlog.push({ d, claimedUntil })
      return
    }
    if (rt.now() + cfg.timeoutMs + 1_000 > claimedUntil) return
    const p: Promise<void> = deliver(d)
      .catch((e) => rt.log.warn('webhook delivery not recorded', { deliveryId: d.id, errorName: (e as Error).name }))
      .finally(() => {
        inFlight.delete(p)
        const next = backlog.shift()
        if (next) start(next.d, next.claimedUntil)
        else if (maybeMore) pump()
      })
    inFlight.add(p)
  }

  /** Attempts waiting to be written to the log, and the write in progress. */
  let toRecord: Array<{ attempt: DeliveryAttempt; done: (e?: unknown) => void }> = []
  let recording = false

  function record(attempt: DeliveryAttempt): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      toRecord.push({ attempt, done: (e) => (e === undefined ? resolve() : reject(e)) })
      if (!recording) void flush()
    })
  }

  async function flush() {
    recording = true
    try {
      while (toRecord.length > 0) {
        const batch = toRecord.slice(0, RECORD_BATCH)
        toRecord = toRecord.slice(RECORD_BATCH)
        try {
          await recordDeliveryAttempts(
            rt.db,
            batch.map((b) => b.attempt),
          )
          for (const b of batch) b.done()
        } catch (e) {
          for (const b of batch) b.done(e ?? new Error('record failed'))
        }
      }
    } finally {
      recording = false
    }
  }

  async function deliver(d: ClaimedDelivery): Promise<void> {
    const attempt = Number(d.attempts) + 1
    const started = performance.now()
    let statusCode: number | null = null
    let error: string | null = null
    let permanent = false
    if (!d.endpoint_active) {
      error = 'endpoint is inactive'
      permanent = true
    } else {
      try {
        statusCode = await post(d)
        if (statusCode < 200 || statusCode >= 300) error = `receiver answered ${statusCode}`
      } catch (e) {
        error = describeFailure(e)
      }
    }
    const durationMs = Math.round(performance.now() - started)
    const delivered = error === null
    const outcome = delivered ? 'DELIVERED' : permanent || attempt >= cfg.maxAttempts ? 'DEAD' : 'RETRY'
    const now = rt.now()
    const nextAttemptAt = outcome === 'RETRY' ? now + backoffMs(attempt, cfg.backoffMs, cfg.maxBackoffMs) : now
    await record({
      id: crypto.randomUUID(),
      outboxId: d.id,
      endpointId: d.endpoint_id,
      eventId: d.event_id,
      eventType: d.event_type,
      attempt,
      statusCode,
      durationMs,
      error,
      outcome,
      nextAttemptAt,
      now,
    })
    if (outcome === 'RETRY') lookAt(Date.now() + (nextAttemptAt - now))
    if (outcome !== 'DELIVERED')
      rt.log.info('webhook delivery failed', { deliveryId: d.id, endpointId: d.endpoint_id, attempt, outcome, reason: error ?? '' })
  }

  /** One POST; resolves with the status code once the response headers arrive. */
  function post(d: ClaimedDelivery): Promise<number> {
    const parsed = parseWebhookUrl(d.url)
    if (!parsed.ok) return Promise.reject(new Error('bad url'))
    const url = parsed.url
    const host = hostOf(url)
    // An IP literal is connected to without a lookup: its address is checked here.
    if (!cfg.allowPrivateUrls && isIP(host) && isNonPublicAddress(host))
      return Promise.reject(Object.assign(new Error('refused'), { code: 'EWEBHOOKDEST' }))
    const body = utf8Encode(d.body)
    const timestampMs = String(Date.now())
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'Content-Length': String(body.length),
      'User-Agent': 'Sigil-Webhooks/1',
      'X-Turnkey-Organization-Id': d.organization_id,
      'X-Turnkey-Event-Type': d.event_type,
      'X-Turnkey-Event-Id': d.event_id,
      'X-Turnkey-Timestamp': timestampMs,
      'X-Turnkey-Webhook-Version': WEBHOOK_VERSION,
      'X-Turnkey-Signature-Key-Id': signer.keyId,
      'X-Turnkey-Signature-Algorithm': SIGNATURE_ALGORITHM,
      'X-Turnkey-Signature-Version': SIGNATURE_VERSION,
      'X-Turnkey-Signature': signer.sign({ timestampMs, eventId: d.event_id, body }),
      'X-Sigil-Delivery-Id': d.id,
      // When the change was committed (queued in its transaction), for latency measurements.
      'X-Sigil-Event-Created-Ms': String(d.created_at),
    }
    const https = url.protocol === 'https:'
    return new Promise<number>((resolve, reject) => {
      const req = (https ? httpsRequest : httpRequest)(
        url,
        {
          method: 'POST',
          headers,
          agent: https ? agents.https : agents.http,
          ...(cfg.allowPrivateUrls ? {} : { lookup: guardedLookup }),
        },
        (res) => {
          clearTimeout(timeout)
          // The body is not read: drained so the connection can be reused, cut off when large.
          let seen = 0
          res.on('data', (chunk: Buffer) => {
            seen += chunk.length
            if (seen > 64 * 1024) res.destroy()
          })
          res.on('error', () => {})
          resolve(res.statusCode ?? 0)
        },
      )
      const timeout = setTimeout(() => req.destroy(new Error('timeout')), cfg.timeoutMs)
      req.on('error', (e) => {
        clearTimeout(timeout)
        reject(e)
      })
      req.end(body)
    })
  }

  const dispatcher: Omit<WebhookDispatcher, 'start'> = {
    wake: () => pump(),
    canTake: () => !stopped && backlog.length < MAX_BACKLOG,
    take(deliveries) {
      if (stopped) return
      for (const d of deliveries) start(d, Number(d.created_at) + claimLeaseMs(rt))
    },
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      // Rows still waiting stay claimed until their lease ends; then any instance sends them.
      backlog.length = 0
      while (claiming || inFlight.size > 0 || recording) {
        await Promise.allSettled([...inFlight])
        if (claiming || recording) await new Promise((r) => setTimeout(r, 5))
      }
      agents.http.destroy()
      agents.https.destroy()
    },
  }
  lookAt(Date.now())
  return dispatcher
}
