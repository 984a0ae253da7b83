import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesToHex } from '../../src/crypto/encoding.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { resolveConfig } from '../../src/service/config.js'
import { createLogger } from '../../src/service/logger.js'
import { startService } from '../../src/service/server.js'
import { freshDatabaseUrl, startTestService, submitBody, type TestService } from './helpers/service.js'

// Structured logs never hold a key, bundle, OTP or stamp, even at debug level.
const lines: string[] = []
let svc: TestService
beforeAll(async () => {
  svc = await startTestService({ logger: createLogger('debug', { svc: 'test' }, (l) => lines.push(l)) })
})
afterAll(async () => {
  await svc?.stop()
})

describe('logs', () => {
  it('are JSON lines with a request id, and hold no secret of an OTP login', async () => {
    const org = svc.admin.organizationId
    const secrets: string[] = [svc.admin.privateKey]
    const body = JSON.stringify({ organizationId: org })
    const stamp = await svc.adminStamper.stamp(body)
    secrets.push(stamp.stampHeaderValue)
    await svc.post('/public/v1/query/whoami', body)

    const contact = 'logs@example.com'
    const init = await svc.post(
      '/public/v1/submit/init_otp_auth',
      submitBody('ACTIVITY_TYPE_INIT_OTP_AUTH_V3', org, { otpType: 'OTP_TYPE_EMAIL', contact, appName: 'Sigil' }),
    )
    expect(init.status).toBe(200)
    const otpId = init.json.activity.result.initOtpAuthResultV2.otpId
    const { messages } = (await (await fetch(`${svc.url}/dev/messages`)).json()) as { messages: Array<{ to: string; text: string }> }
    const code = messages.find((m) => m.to === contact)?.text.match(/code is:? ([0-9A-Z]+)/)?.[1]
    expect(code).toMatch(/^[0-9A-Z]{6,9}$/)
    secrets.push(code!)
    // The user for the contact, so that otp_auth can issue a bundle.
    await svc.post(
      '/public/v1/submit/create_users',
      submitBody('ACTIVITY_TYPE_CREATE_USERS_V3', org, {
        users: [{ userName: 'logs', userEmail: contact, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }],
      }),
    )
    const target = generateP256KeyPair()
    const auth = await svc.post(
      '/public/v1/submit/otp_auth',
      submitBody('ACTIVITY_TYPE_OTP_AUTH', org, { otpId, otpCode: code, targetPublicKey: bytesToHex(target.publicKeyUncompressed) }),
    )
    expect(auth.status).toBe(200)
    secrets.push(auth.json.activity.result.otpAuthResult.credentialBundle)
    await svc.post(
      '/public/v1/submit/otp_auth',
      submitBody('ACTIVITY_TYPE_OTP_AUTH', org, { otpId, otpCode: 'WRONG1234', targetPublicKey: bytesToHex(target.publicKeyUncompressed) }),
    )

    expect(lines.length).toBeGreaterThan(5)
    for (const line of lines) {
      const entry = JSON.parse(line) as Record<string, unknown>
      expect(typeof entry.msg).toBe('string')
      for (const s of secrets) expect(line.includes(s), `log line leaks a secret: ${entry.msg}`).toBe(false)
    }
    const requests = lines.map((l) => JSON.parse(l)).filter((e) => e.msg === 'request')
    expect(requests.every((e) => typeof e.reqId === 'string' && typeof e.status === 'number')).toBe(true)
  })
})

describe('an unexpected error', () => {
  it('is logged with its message, cause chain, stack, request id and path; the response stays the generic INTERNAL body', async () => {
    const logged: string[] = []
    const dataDir = mkdtempSync(join(tmpdir(), 'sigil-internal-'))
    const config = resolveConfig({ SIGIL_LOG: 'silent' }, { port: 0, dataDir, databaseUrl: await freshDatabaseUrl() })
    // A route mounted beside the interface (as the dev mailbox and relay are) that fails the way a bug does.
    const service = await startService(config, {
      logger: createLogger('info', { svc: 'test' }, (l) => logged.push(l)),
      mount: (app) =>
        app.get('/test/bug', () => {
          const cause = Object.assign(new Error('socket hang up near 0x4f3c2a1b9d8e7f60a5b4c3d2e1f00112233445566778899aabbccddeeff0011'), {
            code: 'ECONNRESET',
          })
          throw new TypeError('cannot read properties of undefined (reading "walletId")', { cause })
        }),
    })
    try {
      const res = await fetch(`${service.url}/test/bug`)
      const body = (await res.json()) as { code: number; message: string }
      expect(res.status).toBe(500)
      expect(body.code).toBe(13)
      expect(body.message).toBe('internal error')
      expect(JSON.stringify(body)).not.toMatch(/walletId|socket|ECONNRESET|\.ts/)
      const reqId = res.headers.get('x-request-id')
      const line = logged.map((l) => JSON.parse(l) as Record<string, string>).find((e) => e.msg === 'unhandled error')
      expect(line).toMatchObject({ level: 'error', reqId, method: 'GET', path: '/test/bug' })
      expect(line?.error).toBe('TypeError: cannot read properties of undefined (reading "walletId")')
      expect(line?.causes).toMatch(/^Error \[ECONNRESET\]: socket hang up near \[redacted\]$/)
      expect(line?.stack).toMatch(/service\.logs\.test\.ts:\d+/)
    } finally {
      await service.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
