/**
 * listEmailEvents (list_email_events) through the official client, against a real SMTP server
 * (an in-process smtp-server): an OTP email the server accepts is a `Send` with the server's answer;
 * one it refuses for now (451) is a `DeliveryDelay`, then a `Send` when the retry goes through; one
 * whose recipient it refuses for good (550) is a `Bounce` of type Permanent, and is not retried.
 * Newest first, by recipient in any case, filtered by type, paginated, only the organization's own,
 * and never any of the message's text.
 */
import type { AddressInfo } from 'node:net'
import type { TurnkeyClient } from '@turnkey/http'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminTurnkeyClient, startTestService, type TestService } from './helpers/service.js'

let smtp: SMTPServer
let svc: TestService
let admin: TurnkeyClient
let flakyRefused = 0
const accepted: string[] = []

const OK = 'ok.events@example.com'
const FLAKY = 'flaky.events@example.com'
const GONE = 'gone.events@example.com'

async function waitFor<T>(fn: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    const v = await fn()
    if (v !== undefined) return v
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('timed out')
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address === GONE) return callback(Object.assign(new Error('5.1.1 mailbox does not exist'), { responseCode: 550 }))
      callback()
    },
    onData(stream, session, callback) {
      stream.resume()
      stream.on('end', () => {
        if (session.envelope.rcptTo.some((r) => r.address === FLAKY) && flakyRefused === 0) {
          flakyRefused++
          return callback(Object.assign(new Error('mailbox busy, try again later'), { responseCode: 451 }))
        }
        accepted.push(...session.envelope.rcptTo.map((r) => r.address))
        callback()
      })
    },
  })
  await new Promise<void>((ok) => smtp.listen(0, '127.0.0.1', () => ok()))
  svc = await startTestService({ smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}` })
  admin = adminTurnkeyClient(svc)
}, 60_000)

afterAll(async () => {
  await svc?.stop()
  await new Promise<void>((ok) => smtp.close(() => ok()))
})

const sendOtp = (contact: string) =>
  admin.initOtpAuth({
    type: 'ACTIVITY_TYPE_INIT_OTP_AUTH_V3',
    timestampMs: String(Date.now()),
    organizationId: svc.admin.organizationId,
    parameters: { otpType: 'OTP_TYPE_EMAIL', contact, appName: 'Sigil events test' },
  })

const events = (email: string, more: { eventType?: string; paginationOptions?: { limit?: string; after?: string } } = {}) =>
  admin.listEmailEvents({ organizationId: svc.admin.organizationId, email, ...more }).then((r) => r.emailEvents)

describe('list_email_events (official client, real SMTP)', () => {
  it('an accepted email is a Send with the server’s answer; the recipient is matched in any case; no text of the message', async () => {
    await sendOtp(OK)
    const [sent] = await waitFor(async () => {
      const e = await events(OK.toUpperCase())
      return e.length > 0 ? e : undefined
    })
    expect(accepted).toContain(OK)
    expect(sent).toMatchObject({ organizationId: svc.admin.organizationId, eventType: 'Send', toAddress: OK })
    expect(sent?.details.deliverySmtpResponse).toMatch(/^250/)
    expect(Number(sent?.details.deliveryProcessingTimeMillis)).toBeGreaterThanOrEqual(0)
    expect(Number(sent?.timestamp)).toBeGreaterThan(Date.now() - 60_000)
    expect(JSON.stringify(sent)).not.toMatch(/\b\d{6}\b|verification code|otp/i)
  })

  it('a temporary refusal is a DeliveryDelay, then a Send when the retry goes through; newest first, filtered by type', async () => {
    await sendOtp(FLAKY)
    const all = await waitFor(async () => {
      const e = await events(FLAKY)
      return e.some((x) => x.eventType === 'Send') ? e : undefined
    }, 30_000)
    expect(all.map((e) => e.eventType)).toEqual(['Send', 'DeliveryDelay'])
    expect(all[1]?.details).toMatchObject({ deliveryDelayType: 'TransientCommunicationFailure' })
    expect(all[1]?.details.diagnosticCode).toMatch(/451|try again/)
    expect(all[0]?.messageId).toBe(all[1]?.messageId)
    expect((await events(FLAKY, { eventType: 'DeliveryDelay' })).map((e) => e.id)).toEqual([all[1]?.id])
    expect(await events(FLAKY, { eventType: 'Bounce' })).toEqual([])
    // Paginated as every list: after the newest comes the delay.
    expect((await events(FLAKY, { paginationOptions: { limit: '1', after: all[0]?.id as string } })).map((e) => e.id)).toEqual([all[1]?.id])
  })

  it('a recipient refused for good is a Permanent Bounce, with no retry', async () => {
    await sendOtp(GONE)
    const [bounce] = await waitFor(async () => {
      const e = await events(GONE)
      return e.length > 0 ? e : undefined
    })
    expect(bounce).toMatchObject({ eventType: 'Bounce', details: { bounceType: 'Permanent' } })
    expect(bounce?.details.diagnosticCode).toMatch(/550|mailbox does not exist|recipients were rejected/i)
    await new Promise((r) => setTimeout(r, 1_500)) // past the first retry's back-off
    expect((await events(GONE)).length).toBe(1)
  })

  it('names the field at fault, and another organization sees none of these', async () => {
    await expect(admin.listEmailEvents({ organizationId: svc.admin.organizationId, email: 'not-an-email' })).rejects.toThrow(/email/)
    await expect(events(OK, { eventType: 'Opened' })).rejects.toThrow(/eventType/)
    await expect(events(OK, { paginationOptions: { after: 'no-such-event' } })).rejects.toThrow(/paginationOptions\.after/)
    const sub = await admin.createSubOrganization({
      type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
      timestampMs: String(Date.now()),
      organizationId: svc.admin.organizationId,
      parameters: {
        subOrganizationName: 'events-elsewhere',
        rootUsers: [{ userName: 'elsewhere', apiKeys: [], authenticators: [], oauthProviders: [] }],
        rootQuorumThreshold: 1,
      },
    })
    const subId = sub.activity.result.createSubOrganizationResultV8?.subOrganizationId as string
    expect((await admin.listEmailEvents({ organizationId: subId, email: OK })).emailEvents).toEqual([])
  })
})

describe('list_email_events with the dev mailbox (no SMTP configured)', () => {
  let dev: TestService
  afterAll(async () => {
    await dev?.stop()
  })

  it('an email kept in the dev mailbox is a Send as soon as its activity commits', async () => {
    dev = await startTestService()
    const client = adminTurnkeyClient(dev)
    await client.initOtpAuth({
      type: 'ACTIVITY_TYPE_INIT_OTP_AUTH_V3',
      timestampMs: String(Date.now()),
      organizationId: dev.admin.organizationId,
      parameters: { otpType: 'OTP_TYPE_EMAIL', contact: OK, appName: 'Sigil events test' },
    })
    const { emailEvents } = await client.listEmailEvents({ organizationId: dev.admin.organizationId, email: OK })
    expect(emailEvents.map((e) => [e.eventType, e.toAddress, e.details])).toEqual([['Send', OK, {}]])
  })
})
