/**
 * Real SMTP delivery: with SIGIL_SMTP_URL set, the OTP email goes to an in-process
 * smtp-server after the activity commits, with the sender name, reply-to, subject and template.
 */
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, submitBody, type TestService } from './helpers/service.js'

type Received = { from: string; to: string[]; raw: string }

let smtp: SMTPServer
let svc: TestService
const received: Received[] = []

/** Header block of a raw message, unfolded, as lower-case name → value. */
function headersOf(raw: string): Map<string, string> {
  const block = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ')
  const out = new Map<string, string>()
  for (const line of block.split(/\r?\n/)) {
    const i = line.indexOf(':')
    if (i > 0) out.set(line.slice(0, i).toLowerCase(), line.slice(i + 1).trim())
  }
  return out
}

/** Quoted-printable soft breaks and escapes undone (enough for ASCII bodies). */
function unQp(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
}

async function waitFor<T>(fn: () => T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    const v = fn()
    if (v !== undefined) return v
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('timed out')
}

let refusedOnce = false

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = ''
      stream.on('data', (d: Buffer) => (raw += d.toString('utf8')))
      stream.on('end', () => {
        // A recipient whose first delivery attempt fails with a temporary error.
        if (session.envelope.rcptTo.some((r) => r.address === 'flaky@example.com') && !refusedOnce) {
          refusedOnce = true
          const err = Object.assign(new Error('mailbox busy, try again later'), { responseCode: 451 })
          return callback(err)
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        })
        callback()
      })
    },
  })
  await new Promise<void>((ok) => smtp.listen(0, '127.0.0.1', () => ok()))
  const port = (smtp.server.address() as AddressInfo).port
  // The operator allows the app's sender domain and link origin (no others are allowed).
  svc = await startTestService({
    smtpUrl: `smtp://127.0.0.1:${port}`,
    mailSenders: ['acme.example'],
    mailLinkOrigins: ['https://acme.example'],
  })
}, 60_000)

afterAll(async () => {
  await svc?.stop()
  await new Promise<void>((ok) => smtp.close(() => ok()))
})

describe('SMTP delivery', () => {
  it('sends the OTP email with sender name, reply-to, subject and template; the mailbox shows it sent', async () => {
    const res = await svc.post(
      '/public/v1/submit/init_otp_auth',
      submitBody('ACTIVITY_TYPE_INIT_OTP_AUTH_V3', svc.admin.organizationId, {
        otpType: 'OTP_TYPE_EMAIL',
        contact: 'Zoe@Example.com',
        appName: 'Acme Wallet',
        sendFromEmailAddress: 'otp@acme.example',
        sendFromEmailSenderName: 'Acme Team',
        replyToEmailAddress: 'help@acme.example',
        emailCustomization: { magicLinkTemplate: 'https://acme.example/login?code=%s', logoUrl: 'https://acme.example/logo.png' },
      }),
    )
    expect(res.status).toBe(200)
    const mail = await waitFor(() => received.find((m) => m.to.includes('zoe@example.com')))
    expect(mail.from).toBe('otp@acme.example')
    const h = headersOf(mail.raw)
    expect(h.get('from')).toBe('Acme Team <otp@acme.example>')
    expect(h.get('reply-to')).toBe('help@acme.example')
    expect(h.get('subject')).toBe('Your Acme Wallet verification code')
    const body = unQp(mail.raw)
    const code = body.match(/Acme Wallet verification code is: ([0-9A-Z]{9})/)?.[1]
    expect(code).toBeDefined()
    expect(body).toContain(`https://acme.example/login?code=${code}`)
    expect(body).toContain('https://acme.example/logo.png')

    let delivery = ''
    for (let i = 0; i < 40 && delivery !== 'sent'; i++) {
      const msgs = (await (await fetch(`${svc.url}/dev/messages`)).json()) as {
        messages: Array<{ to: string; delivery: string; from: string }>
      }
      const m = msgs.messages.find((x) => x.to === 'zoe@example.com')
      delivery = m?.delivery ?? ''
      expect(m?.from).toBe('"Acme Team" <otp@acme.example>')
      if (delivery !== 'sent') await new Promise((r) => setTimeout(r, 50))
    }
    expect(delivery).toBe('sent')
  })

  it('retries a delivery that failed and reports the attempts in the mailbox', async () => {
    const res = await svc.post(
      '/public/v1/submit/init_otp_auth',
      submitBody('ACTIVITY_TYPE_INIT_OTP_AUTH_V3', svc.admin.organizationId, {
        otpType: 'OTP_TYPE_EMAIL',
        contact: 'flaky@example.com',
        appName: 'Acme',
      }),
    )
    expect(res.status).toBe(200)
    const mail = await waitFor(() => received.find((m) => m.to.includes('flaky@example.com')), 20_000)
    expect(refusedOnce).toBe(true)
    expect(unQp(mail.raw)).toMatch(/Acme verification code is: [0-9A-Z]{9}/)
    const { messages } = (await (await fetch(`${svc.url}/dev/messages`)).json()) as {
      messages: Array<{ to: string; delivery: string; attempts: number; lastError?: string }>
    }
    const m = messages.find((x) => x.to === 'flaky@example.com')
    expect(m?.attempts).toBeGreaterThanOrEqual(2)
    // The failed first attempt is counted (its error is cleared once a retry succeeds).
    let delivery = m?.delivery
    for (let i = 0; i < 40 && delivery !== 'sent'; i++) {
      await new Promise((r) => setTimeout(r, 50))
      const again = (await (await fetch(`${svc.url}/dev/messages`)).json()) as { messages: Array<{ to: string; delivery: string }> }
      delivery = again.messages.find((x) => x.to === 'flaky@example.com')?.delivery
    }
    expect(delivery).toBe('sent')
  })

  it('does not send the email of an activity that failed', async () => {
    const before = received.length
    const res = await svc.post(
      '/public/v1/submit/init_otp_auth',
      submitBody('ACTIVITY_TYPE_INIT_OTP_AUTH_V3', svc.admin.organizationId, {
        otpType: 'OTP_TYPE_EMAIL',
        contact: 'yan@example.com',
        appName: 'Acme',
        replyToEmailAddress: 'not an address',
      }),
    )
    expect(res.status).toBe(400)
    expect(res.json.message).toContain('replyToEmailAddress')
    await new Promise((r) => setTimeout(r, 300))
    expect(received.length).toBe(before)
  })
})
