/**
 * Outgoing email and SMS. A message is written inside the activity's transaction (a rolled-back
 * activity sends nothing). With a transport configured (SMTP via nodemailer, SMS via an HTTP
 * webhook) it is `pending` and delivered by this worker, woken by the transaction's after-commit
 * hook, with retries and backoff; it also polls, so messages a crashed run left pending are sent
 * once the service is back. Each attempt and its error are recorded (`delivery`, `attempts`,
 * `last_error`, readable in the dev mailbox); after the last retry it is `failed` and logged at
 * error level. Without a transport it stays in the dev mailbox (`mailbox`), or, with the mailbox
 * off, the activity fails: nothing is silently dropped.
 */
import nodemailer, { type Transporter } from 'nodemailer'
import { SigilError } from '../../api/errors.js'
import type { Outbox, Runtime } from '../runtime.js'
import type { Transaction } from '../store/sql.js'
import { dueMessages, insertMessage, recordAttempt, type MessageRow, type NewMessage } from '../store/mailbox.js'

/** Seconds to wait before each retry; after the last one the message is `failed`. */
const BACKOFF_MS = [1_000, 5_000, 30_000, 120_000, 600_000]

/** Queues a message in the activity's transaction; delivery starts once it commits. */
export async function enqueueMessage(tx: Transaction, rt: Runtime, m: NewMessage, now: number): Promise<string> {
  const transport = m.channel === 'email' ? rt.config.smtpUrl : rt.config.smsWebhookUrl
  if (!transport && !rt.config.devMailbox) {
    throw new SigilError(
      'FAILED_PRECONDITION',
      `no ${m.channel === 'email' ? 'email (SIGIL_SMTP_URL)' : 'SMS (SIGIL_SMS_WEBHOOK_URL)'} delivery is configured`,
    )
  }
  const id = await insertMessage(tx, { ...m, delivery: transport ? 'pending' : 'mailbox' }, now)
  const outbox = rt.outbox
  if (transport && outbox) tx.afterCommit(() => outbox.kick())
  return id
}

/**
 * The runtime's delivery worker (one per service instance, when SMTP or SMS is configured), idle
 * until started; stopped, it stays stopped.
 */
export function createOutbox(): Outbox {
  let running: Omit<Outbox, 'start'> | undefined
  let stopped = false
  return {
    start(rt) {
      if (!stopped) running ??= startDelivering(rt)
    },
    kick: () => running?.kick(),
    stop() {
      stopped = true
      running?.stop()
    },
  }
}

function startDelivering(rt: Runtime): Omit<Outbox, 'start'> {
  let smtp: Transporter | undefined
  let running = false
  let again = false
  let stopped = false
  let timer: NodeJS.Timeout | undefined

  const schedule = (ms: number) => {
    if (stopped) return
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => void run(), ms)
    timer.unref()
  }

  async function deliver(m: MessageRow): Promise<void> {
    if (m.channel === 'email') {
      smtp ??= nodemailer.createTransport(rt.config.smtpUrl!)
      await smtp.sendMail({
        from: m.from_address,
        to: m.to_address,
        ...(m.reply_to ? { replyTo: m.reply_to } : {}),
        subject: m.subject,
        text: m.text_body,
        ...(m.html_body ? { html: m.html_body } : {}),
        headers: { 'X-Sigil-Message-Id': m.id },
      })
      return
    }
    const res = await fetch(rt.config.smsWebhookUrl!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: m.id, channel: 'sms', to: m.to_address, from: m.from_address, text: m.text_body }),
      signal: AbortSignal.timeout(10_000),
    })
    if (!res.ok) throw new Error(`SMS webhook answered ${res.status}`)
  }

  async function run(): Promise<void> {
    if (stopped) return
    if (running) {
      again = true
      return
    }
    running = true
    try {
      do {
        again = false
        const now = rt.now()
        for (const m of await dueMessages(rt.db, Date.now() > now ? Date.now() : now)) {
          try {
            await deliver(m)
            await recordAttempt(rt.db, m.id, {
              delivery: 'sent',
              lastError: null,
              nextAttemptAt: Date.now(),
              clearBodies: !rt.config.devMailbox,
            })
            rt.log.info('message delivered', { messageId: m.id, channel: m.channel })
          } catch (e) {
            const attempt = m.attempts + 1
            const wait = BACKOFF_MS[attempt - 1]
            const error = e instanceof Error ? e.message.slice(0, 300) : 'delivery failed'
            await recordAttempt(rt.db, m.id, {
              delivery: wait === undefined ? 'failed' : 'pending',
              lastError: error,
              nextAttemptAt: Date.now() + (wait ?? 0),
              clearBodies: false,
            })
            if (wait === undefined)
              rt.log.error('message delivery failed for good', { messageId: m.id, channel: m.channel, attempts: attempt })
            else {
              rt.log.warn('message delivery failed, will retry', { messageId: m.id, channel: m.channel, attempts: attempt, retryMs: wait })
              schedule(wait)
            }
          }
        }
      } while (again)
    } catch (e) {
      if (e instanceof SigilError && e.code === 'UNAVAILABLE') {
        // The database is down for now (restart, failover): the next poll tries again.
        rt.log.debug('outbox waiting for the database', { errorCode: e.code })
        return
      }
      // The database went away (service stopping): stop quietly; anything pending is retried at the next start.
      rt.log.debug('outbox paused', { errorName: (e as Error).name })
      stopped = true
      clearInterval(poll)
    } finally {
      running = false
    }
  }

  // Pick up messages left pending by an earlier run, then poll now and then.
  schedule(50)
  const poll = setInterval(() => void run(), 5_000)
  poll.unref()
  return {
    kick: () => void run(),
    stop() {
      stopped = true
      clearInterval(poll)
      if (timer) clearTimeout(timer)
      smtp?.close()
    },
  }
}
