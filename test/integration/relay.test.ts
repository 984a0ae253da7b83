/**
 * The auth relay (wire-formats B6): mounted at /auth on the local service and
 * standalone, talking to the service only over HTTP. Sign-up and login by email, SMS and
 * passkey; Origin checks; its responses never contain a decrypted key.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { p256 } from '@noble/curves/nist.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Stamper } from '../../src/api/stamper.js'
import { decryptCredentialBundle } from '../../src/crypto/credentialBundle.js'
import { base64UrlEncode, bytesToHex, utf8Encode } from '../../src/crypto/encoding.js'
import { decodeJwtPayload, verifySessionJwt } from '../../src/crypto/jwt.js'
import { generateP256KeyPair } from '../../src/crypto/p256.js'
import { createApiKeyStamper } from '../../src/crypto/stamp.js'
import { createRelayApp } from '../../src/relay/app.js'
import { authenticatorParam, createSoftAuthenticator, randomChallenge } from '../helpers/softAuthenticator.js'
import { startTestService, submitBody, type TestService } from './helpers/service.js'

let svc: TestService
let rootOrgId: string
/** Every relay response body, searched at the end for decrypted key material. */
const relayBodies: string[] = []
const decryptedKeys: string[] = []

async function relay(path: string, body: unknown, origin: string | null = 'http://localhost:5173', base?: string) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Auth-Proxy-Config-ID': 'local' }
  if (origin) headers.Origin = origin
  const res = await fetch(`${base ?? `${svc.url}/auth`}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
  const text = await res.text()
  relayBodies.push(text)
  return { status: res.status, json: JSON.parse(text) as any }
}

async function latestMessageTo(to: string) {
  const res = await fetch(`${svc.url}/dev/messages`)
  const { messages } = (await res.json()) as { messages: Array<{ to: string; text: string; channel: string }> }
  const m = messages.find((x) => x.to === to)
  expect(m).toBeDefined()
  return m!
}

async function codeFor(to: string) {
  const code = (await latestMessageTo(to)).text.match(/code is:? ([0-9A-Z]+)/)?.[1]
  expect(code).toBeDefined()
  return code!
}

async function open(bundle: string, privateKey: Uint8Array): Promise<Stamper> {
  const r = await decryptCredentialBundle({ bundle, privateKey })
  expect(r.ok).toBe(true)
  if (!r.ok) throw new Error(r.reason)
  decryptedKeys.push(bytesToHex(r.plaintext))
  return createApiKeyStamper({ privateKeyHex: bytesToHex(r.plaintext) })
}

/** OTP sign-up through the relay: otp_init → code from the mailbox → otp_auth → a working key. */
async function otpSignUp(otpType: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS', contact: string) {
  const init = await relay('/v1/otp_init', { otpType, contact })
  expect(init.status).toBe(200)
  const target = generateP256KeyPair()
  const auth = await relay('/v1/otp_auth', {
    otpId: init.json.otpId,
    otpCode: await codeFor(contact),
    targetPublicKey: bytesToHex(target.publicKeyUncompressed),
  })
  expect(auth.status).toBe(200)
  expect(auth.json.organizationId).not.toBe(rootOrgId)
  const stamper = await open(auth.json.credentialBundle, target.privateKey)
  const who = await svc.post('/public/v1/query/whoami', { organizationId: auth.json.organizationId }, stamper)
  expect(who.status).toBe(200)
  expect(who.json.userId).toBe(auth.json.userId)
  const accounts = await svc.post('/public/v1/query/list_wallet_accounts', { organizationId: auth.json.organizationId }, stamper)
  expect(accounts.status).toBe(200)
  const formats = (accounts.json.accounts as any[]).map((a) => `${a.addressFormat} ${a.path}`).sort()
  expect(formats).toEqual([
    "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH m/84'/0'/0'/0/0",
    "ADDRESS_FORMAT_ETHEREUM m/44'/60'/0'/0/0",
    "ADDRESS_FORMAT_SOLANA m/44'/501'/0'/0'",
  ])
  return { ...auth.json, stamper } as { organizationId: string; userId: string; stamper: Stamper }
}

beforeAll(async () => {
  svc = await startTestService()
  rootOrgId = svc.admin.organizationId
}, 60_000)

afterAll(async () => {
  await svc?.stop()
})

describe('relay sign-up and login', () => {
  it('signs up by email OTP: a sub-organization with a default wallet and a key only the client can decrypt', async () => {
    const first = await otpSignUp('OTP_TYPE_EMAIL', 'dave@example.com')
    // A second OTP auth for the same contact logs into the same account.
    const again = await otpSignUp('OTP_TYPE_EMAIL', 'Dave@Example.com'.toLowerCase())
    expect(again.organizationId).toBe(first.organizationId)
    expect(again.userId).toBe(first.userId)
  })

  it('signs up by SMS OTP', async () => {
    const r = await otpSignUp('OTP_TYPE_SMS', '+15555550777')
    expect((await latestMessageTo('+15555550777')).channel).toBe('sms')
    expect(r.userId).toBeTruthy()
  })

  it('relays a wrong code as "Invalid OTP code"', async () => {
    const init = await relay('/v1/otp_init', { otpType: 'OTP_TYPE_EMAIL', contact: 'erin@example.com' })
    const res = await relay('/v1/otp_auth', {
      otpId: init.json.otpId,
      otpCode: 'WRONGCODE',
      targetPublicKey: bytesToHex(generateP256KeyPair().publicKey),
    })
    expect(res.status).toBe(400)
    expect(res.json.message).toBe('Invalid OTP code')
    // A wrong code for a new contact signs nobody up.
    const account = await relay('/v1/account', { filterType: 'EMAIL', filterValue: 'erin@example.com' })
    const subs = await svc.post('/public/v1/query/list_suborgs', {
      organizationId: rootOrgId,
      filterType: 'EMAIL',
      filterValue: 'erin@example.com',
    })
    expect(account.json.organizationId ?? null).toBeNull()
    expect(subs.status).toBe(200)
    expect(subs.json.organizationIds).toEqual([])
  })

  it('core OTP flow: otp_verify → account lookup with the token → X-Stamp-Attested stamp_login', async () => {
    const { organizationId, userId } = await otpSignUp('OTP_TYPE_EMAIL', 'frank@example.com')
    const init = await relay('/v1/otp_init', { otpType: 'OTP_TYPE_EMAIL', contact: 'frank@example.com' })
    const key = generateP256KeyPair()
    const verify = await relay('/v1/otp_verify', {
      otpId: init.json.otpId,
      otpCode: await codeFor('frank@example.com'),
      publicKey: bytesToHex(key.publicKey),
    })
    expect(verify.status).toBe(200)
    const token: string = verify.json.verificationToken
    expect((await relay('/v1/account', { filterType: 'EMAIL', filterValue: 'frank@example.com' })).status).toBe(400)
    const account = await relay('/v1/account', { filterType: 'EMAIL', filterValue: 'frank@example.com', verificationToken: token })
    expect(account.json.organizationId).toBe(organizationId)

    const sessionKey = generateP256KeyPair()
    const body = JSON.stringify(
      submitBody('ACTIVITY_TYPE_STAMP_LOGIN', organizationId, { publicKey: bytesToHex(sessionKey.publicKey), expirationSeconds: '900' }),
    )
    const signature = bytesToHex(p256.sign(utf8Encode(body), key.privateKey, { prehash: true, lowS: false, format: 'der' }))
    const header = base64UrlEncode(
      utf8Encode(
        JSON.stringify({
          publicKeyAttestation: token,
          scheme: 'STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN',
          publicKey: bytesToHex(key.publicKey),
          signature,
        }),
      ),
    )
    const res = await fetch(`${svc.url}/public/v1/submit/stamp_login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Stamp-Attested': header },
      body,
    })
    expect(res.status).toBe(200)
    const session = ((await res.json()) as any).activity.result.stampLoginResult.session as string
    const v = verifySessionJwt(session, svc.rt.keys.session.publicKeyHex, { nowMs: Date.now() })
    expect(v.ok && v.claims.user_id).toBe(userId)
  })

  it('otp_login through the relay gives a session for the account', async () => {
    const { userId } = await otpSignUp('OTP_TYPE_EMAIL', 'gina@example.com')
    const init = await relay('/v1/otp_init', { otpType: 'OTP_TYPE_EMAIL', contact: 'gina@example.com' })
    const key = generateP256KeyPair()
    const verify = await relay('/v1/otp_verify', {
      otpId: init.json.otpId,
      otpCode: await codeFor('gina@example.com'),
      publicKey: bytesToHex(key.publicKey),
    })
    const login = await relay('/v1/otp_login', { verificationToken: verify.json.verificationToken, publicKey: bytesToHex(key.publicKey) })
    expect(login.status).toBe(200)
    expect(decodeJwtPayload(login.json.session)?.user_id).toBe(userId)
  })

  it('signs up with a passkey; create_read_write_session stamped by it names the parent organization', async () => {
    const soft = createSoftAuthenticator({ rpId: 'localhost', origin: 'http://localhost:5173' })
    const temp = generateP256KeyPair()
    const signup = await relay('/v1/signup', {
      userName: 'passkey user',
      authenticators: [authenticatorParam(soft, randomChallenge(), 'my passkey')],
      apiKeys: [
        {
          apiKeyName: `passkey-auth-${bytesToHex(temp.publicKey)}`,
          publicKey: bytesToHex(temp.publicKey),
          curveType: 'API_KEY_CURVE_P256',
          expirationSeconds: '60',
        },
      ],
      oauthProviders: [],
    })
    expect(signup.status).toBe(200)
    const { organizationId, userId } = signup.json
    expect(signup.json.wallet.addresses).toHaveLength(3)

    const target = generateP256KeyPair()
    const rw = await svc.post(
      '/public/v1/submit/create_read_write_session',
      submitBody('ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2', rootOrgId, { targetPublicKey: bytesToHex(target.publicKeyUncompressed) }),
      soft.stamper(),
    )
    expect(rw.status).toBe(200)
    const r = rw.json.activity.result.createReadWriteSessionResultV2
    expect(r.organizationId).toBe(organizationId)
    expect(r.userId).toBe(userId)
    const stamper = await open(r.credentialBundle, target.privateKey)
    const who = await svc.post('/public/v1/query/whoami', { organizationId }, stamper)
    expect(who.json.userId).toBe(userId)
  })

  it('starts email recovery for an account', async () => {
    const { userId, organizationId } = await otpSignUp('OTP_TYPE_EMAIL', 'hana@example.com')
    const target = generateP256KeyPair()
    const res = await relay('/v1/recovery_init', { email: 'hana@example.com', targetPublicKey: bytesToHex(target.publicKeyUncompressed) })
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ organizationId, userId })
    const bundle = (await latestMessageTo('hana@example.com')).text.split('\n')[1]!.trim()
    const stamper = await open(bundle, target.privateKey)
    expect((await svc.post('/public/v1/query/whoami', { organizationId }, stamper)).json.userId).toBe(userId)
  })

  it('answers wallet_kit_config with the parent organization', async () => {
    const res = await relay('/v1/wallet_kit_config', {})
    expect(res.status).toBe(200)
    expect(res.json.organizationId).toBe(rootOrgId)
  })
})

describe('relay guards', () => {
  it('refuses a disallowed or missing Origin with 403', async () => {
    const evil = await relay('/v1/otp_init', { otpType: 'OTP_TYPE_EMAIL', contact: 'ivan@example.com' }, 'https://evil.example')
    expect(evil.status).toBe(403)
    const none = await relay('/v1/otp_init', { otpType: 'OTP_TYPE_EMAIL', contact: 'ivan@example.com' }, null)
    expect(none.status).toBe(403)
  })

  it('rate-limits per contact with 429', async () => {
    let last = 0
    for (let i = 0; i < 12; i++) last = (await relay('/v1/otp_init', { otpType: 'OTP_TYPE_EMAIL', contact: 'judy@example.com' })).status
    expect(last).toBe(429)
  })

  it('runs standalone in front of the service over HTTP', async () => {
    const keyFile = join(svc.dataDir, 'relay-key.json')
    writeFileSync(keyFile, JSON.stringify(svc.admin))
    const app = createRelayApp({ upstream: svc.url, apiKey: svc.admin, allowedOrigins: ['https://app.example'], cors: true })
    const server = await new Promise<ReturnType<typeof serve>>((ok) => {
      const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => ok(s))
    })
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const cfg = await relay('/v1/wallet_kit_config', {}, 'https://app.example', base)
      expect(cfg.json.organizationId).toBe(rootOrgId)
      expect((await relay('/v1/wallet_kit_config', {}, 'http://localhost', base)).status).toBe(403)
      const init = await relay('/v1/otp_init', { otpType: 'OTP_TYPE_EMAIL', contact: 'kate@example.com' }, 'https://app.example', base)
      expect(init.status).toBe(200)
      const target = generateP256KeyPair()
      const auth = await relay(
        '/v1/otp_auth',
        { otpId: init.json.otpId, otpCode: await codeFor('kate@example.com'), targetPublicKey: bytesToHex(target.publicKey) },
        'https://app.example',
        base,
      )
      expect(auth.status).toBe(200)
      await open(auth.json.credentialBundle, target.privateKey)
    } finally {
      await new Promise((ok) => server.close(ok))
    }
  })

  it('never returned a decrypted key in any relay response', () => {
    expect(decryptedKeys.length).toBeGreaterThan(4)
    const all = relayBodies.join('\n').toLowerCase()
    for (const k of decryptedKeys) expect(all).not.toContain(k)
  })
})
