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
import type { Transporter } from 'nodemailer'
import { SigilError } from '../../api/errors.js'
import type { Outbox, Runtime } from '../runtime.js'
import type { Transaction } from '../store/sql.js'
import { type EmailEventDetails, type EmailEventType, insertEmailEvent } from '../store/emailEvents.js'
import { dueMessages, insertMessage, recordAttempt, type MessageRow, type NewMessage } from '../store/mailbox.js'

/** Seconds to wait before each retry; after the last one the message is `failed`. */
const BACKOFF_MS = [1_000, 5_000, 30_000, 120_000, 600_000]

/** The SMTP server refused the message for good (a recipient rejected without an error status). */
class PermanentRefusal extends Error {}

/** The SMTP reply code nodemailer attached to an error (0 when none). */
function smtpCode(e: unknown): number {
  const code = (e as { responseCode?: unknown } | null)?.responseCode
  return typeof code === 'number' ? code : 0
}

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
  // The dev mailbox is where it is delivered: sent as soon as the activity commits.
  if (!transport && m.channel === 'email')
    await insertEmailEvent(tx, {
      organizationId: m.organization_id ?? null,
      messageId: id,
      type: 'Send',
      from: m.from_address,
      to: m.to_address,
      now,
    })
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

  /** Records what happened to an email (list_email_events); SMS has no events. */
  const emailEvent = (m: MessageRow, type: EmailEventType, details: EmailEventDetails) =>
    m.channel === 'email'
      ? insertEmailEvent(rt.db, {
          organizationId: m.organization_id,
          messageId: m.id,
          type,
          from: m.from_address,
          to: m.to_address,
          details,
          now: Date.now(),
        })
      : Promise.resolve()

  /** Delivers one message; the SMTP server's answer for an email. */
  async function deliver(m: MessageRow): Promise<string | undefined> {
    if (m.channel === 'email') {
      // nodemailer loads with the first email, not at start.
      smtp ??= (await import('nodemailer')).default.createTransport(rt.config.smtpUrl!)
      const info = await smtp.sendMail({
        from: m.from_address,
        to: m.to_address,
        ...(m.reply_to ? { replyTo: m.reply_to } : {}),
        subject: m.subject,
        text: m.text_body,
        ...(m.html_body ? { html: m.html_body } : {}),
        headers: { 'X-Sigil-Message-Id': m.id },
      })
      if ((info.rejected ?? []).length > 0) throw new PermanentRefusal(String(info.response ?? 'the recipient was refused').slice(0, 300))
      return String(info.response ?? '').slice(0, 300)
    }
    const res = await fetch(rt.config.smsWebhookUrl!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: m.id, channel: 'sms', to: m.to_address, from: m.from_address, text: m.text_body }),
      signal: AbortSignal.timeout(10_000),
    })
    if (!res.ok) throw new Error(`SMS webhook answered ${res.status}`)
    return undefined
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
          const started = Date.now()
          let response: string | undefined
          try {
            response = await deliver(m)
          } catch (e) {
            const attempt = m.attempts + 1
            // A permanent SMTP refusal (5xx, or the recipient rejected) is not retried.
            const permanent = e instanceof PermanentRefusal || smtpCode(e) >= 500
            const wait = permanent ? undefined : BACKOFF_MS[attempt - 1]
            const error = e instanceof Error ? e.message.slice(0, 300) : 'delivery failed'
            await recordAttempt(rt.db, m.id, {
              delivery: wait === undefined ? 'failed' : 'pending',
              lastError: error,
              nextAttemptAt: Date.now() + (wait ?? 0),
              clearBodies: false,
            })
            await emailEvent(
              m,
              wait === undefined ? 'Bounce' : 'DeliveryDelay',
              wait === undefined
                ? { bounceType: permanent ? 'Permanent' : 'Transient', bounceSubType: 'General', diagnosticCode: error }
                : { deliveryDelayType: 'TransientCommunicationFailure', diagnosticCode: error },
            )
            if (wait === undefined)
              rt.log.error('message delivery failed for good', { messageId: m.id, channel: m.channel, attempts: attempt })
            else {
              rt.log.warn('message delivery failed, will retry', { messageId: m.id, channel: m.channel, attempts: attempt, retryMs: wait })
              schedule(wait)
            }
            continue
          }
          await recordAttempt(rt.db, m.id, {
            delivery: 'sent',
            lastError: null,
            nextAttemptAt: Date.now(),
            clearBodies: !rt.config.devMailbox,
          })
          await emailEvent(m, 'Send', {
            ...(response ? { deliverySmtpResponse: response } : {}),
            deliveryProcessingTimeMillis: String(Date.now() - started),
          })
          rt.log.info('message delivered', { messageId: m.id, channel: m.channel })
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
