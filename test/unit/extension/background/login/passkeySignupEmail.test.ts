/**
 * Passkey sign-up with a verified email (background methods): refusals without a verified
 * token run against a fake browser with no network; the full flow runs the fake browser
 * against the real local service and its relay (`/auth`), with a software authenticator.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createCore, type Core } from '@/src/extension/background/core'
import { isKeyPair } from '@/src/extension/background/session/keyStore'
import { passkeySignup } from '@/src/extension/background/login/passkey'
import { readPending, writePending } from '@/src/extension/background/login/pending'
import { routePopup, type RouterContext } from '@/src/extension/background/router'
import { startSignupEmail, verifySignupEmail } from '@/src/extension/background/login/signupEmail'
import { createBackgroundState } from '@/src/extension/background/state'
import { EXTENSION_ORIGIN } from '@/src/api/identity'
import { verifyClientSignature, decodeJwtPayload, signVerificationToken } from '@/src/crypto/jwt'
import { generateP256KeyPair, p256PublicKeyFromPrivate } from '@/src/crypto/p256'
import { createTargetBundle, decryptEnvelope } from '@/src/crypto/signedBundle'
import { createSoftAuthenticator, randomChallenge, type SoftAuthenticator } from '../../../../helpers/softAuthenticator'
import { startTestService, type TestService } from '../../../../integration/helpers/service'
import { fakeDeps, fakeIdentity, pinService } from '../../fakeDeps'

const EXT_ID = 'enibeleniamgnfhbmpkkldfacbjikdfa'
const popup = { id: EXT_ID, url: `chrome-extension://${EXT_ID}/popup.html` }

function registration(soft: SoftAuthenticator) {
  const challenge = randomChallenge()
  return { authenticatorName: 'Sigil passkey', challenge, attestation: soft.register(challenge).attestation }
}

function routerCtx(core: Core): RouterContext {
  return { state: createBackgroundState(), extensionId: EXT_ID, extensionBaseUrl: `chrome-extension://${EXT_ID}/`, core }
}

describe('passkey sign-up refusals (no network)', () => {
  const soft = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })

  it('refuses passkeySignup without any email step, and calls nothing', async () => {
    const f = fakeDeps()
    const core = createCore(f.deps)
    await expect(passkeySignup(core, registration(soft))).rejects.toMatchObject({ code: 'NO_PENDING_LOGIN' })
    expect(f.deps.fetch).not.toHaveBeenCalled()
    expect(await f.deps.keyStore.get('login-target')).toBeUndefined()
  })

  it('refuses passkeySignup after a code was sent but before it was verified', async () => {
    const f = fakeDeps()
    const core = createCore(f.deps)
    await writePending(f.deps.session, 'passkeySignup', {
      email: 'a@example.test',
      otpId: 'otp-1',
      targetBundle: '{}',
      createdAt: core.now(),
    })
    await expect(passkeySignup(core, registration(soft))).rejects.toMatchObject({ code: 'NO_PENDING_LOGIN' })
    expect(f.deps.fetch).not.toHaveBeenCalled()
  })

  it('refuses a stored token without its temporary key, and an expired email step', async () => {
    const f = fakeDeps()
    const core = createCore(f.deps)
    await writePending(f.deps.session, 'passkeySignup', {
      email: 'a@example.test',
      otpId: 'o',
      targetBundle: '{}',
      verificationToken: 'x.y.z',
      createdAt: core.now(),
    })
    await expect(passkeySignup(core, registration(soft))).rejects.toMatchObject({ code: 'NO_PENDING_LOGIN' })
    f.advance(11 * 60_000)
    await expect(verifySignupEmail(core, { code: 'ABCDEF123' })).rejects.toMatchObject({ code: 'NO_PENDING_LOGIN' })
    expect(f.deps.fetch).not.toHaveBeenCalled()
  })

  it('the popup router validates the new methods and never shows the token', async () => {
    const f = fakeDeps()
    const ctx = routerCtx(createCore(f.deps))
    const call = (method: string, params?: unknown) =>
      routePopup({ kind: 'popup', method, ...(params === undefined ? {} : { params }) }, popup, ctx)
    expect(await call('passkeySignupEmailStart', { email: 'not-an-email' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT' },
    })
    expect(await call('passkeySignupEmailStart', {})).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
    expect(await call('passkeySignupEmailVerify', { code: 'no spaces!' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
    expect(await call('passkeySignupEmailVerify', { code: 'ABCDEF123' })).toMatchObject({ ok: false, error: { code: 'NO_PENDING_LOGIN' } })
    expect(await call('passkeySignup', { authenticatorName: 'x' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
    const token = 'header.payload.signature'
    await writePending(f.deps.session, 'passkeySignup', {
      email: 'a@example.test',
      otpId: 'o',
      targetBundle: '{}',
      verificationToken: token,
      createdAt: f.deps.now(),
    })
    const status = await call('getStatus')
    expect(status).toMatchObject({ ok: true, result: { pendingPasskeySignup: { email: 'a@example.test', verified: true } } })
    expect(JSON.stringify(status)).not.toContain(token)
    expect(f.deps.fetch).not.toHaveBeenCalled()
  })

  /** A relay stub: identity, a signed target bundle, then a token for `contact` signed by `tokenSigner`. */
  function relayStub(f: ReturnType<typeof fakeDeps>, opts: { contact: string; tokenSigner?: Uint8Array; bundleSigner?: Uint8Array }) {
    const id = fakeIdentity('http://127.0.0.1:8787')
    const otpTarget = generateP256KeyPair()
    vi.mocked(f.deps.fetch).mockImplementation((async (url: string, init?: RequestInit) => {
      const known = id.answer(url)
      if (known) return known
      if (url.endsWith('/v1/otp_init_v2')) {
        const otpEncryptionTargetBundle = createTargetBundle({
          targetPublicKey: p256PublicKeyFromPrivate(otpTarget.privateKey, false),
          signerPrivateKey: opts.bundleSigner ?? id.key.privateKey,
        })
        return Response.json({ otpId: 'otp-1', otpEncryptionTargetBundle })
      }
      if (url.endsWith('/v1/otp_verify_v2')) {
        const body = JSON.parse(String(init?.body)) as { encryptedOtpBundle: string }
        const opened = await decryptEnvelope({ envelope: body.encryptedOtpBundle, privateKey: otpTarget.privateKey })
        if (!opened.ok) return Response.json({ code: 3, message: 'bad bundle', details: [] }, { status: 400 })
        const inner = JSON.parse(new TextDecoder().decode(opened.plaintext)) as { otp_code: string; public_key: string }
        const verificationToken = signVerificationToken({
          claims: {
            exp: String(Date.now() + 60_000),
            id: 'tok-1',
            organization_id: 'parent',
            verification_type: 'OTP_TYPE_EMAIL',
            contact: opts.contact,
            public_key: inner.public_key,
          },
          signerPrivateKey: opts.tokenSigner ?? id.key.privateKey,
        })
        return Response.json({ verificationToken })
      }
      return Response.json({ code: 5, message: 'unexpected', details: [] }, { status: 404 })
    }) as never)
    return id
  }
  const paths = (f: ReturnType<typeof fakeDeps>) =>
    vi
      .mocked(f.deps.fetch)
      .mock.calls.map((c) => String(c[0]).replace(/^.*\/auth/, ''))
      .filter((p) => !p.includes('identity') && !p.includes('sigil-service'))

  it('refuses a verification token the relay issued for another email (nothing stored)', async () => {
    const f = fakeDeps()
    relayStub(f, { contact: 'mallory@example.test' }).pin(f.deps.local)
    const core = createCore(f.deps)
    expect(await startSignupEmail(core, { email: ' Alice@Example.test ' })).toEqual({ email: 'alice@example.test', verified: false })
    await expect(verifySignupEmail(core, { code: 'ABCDEF123' })).rejects.toMatchObject({ code: 'SERVICE_UNVERIFIED' })
    const pending = await readPending(f.deps.session, 'passkeySignup', core.now())
    expect(pending?.verificationToken).toBeUndefined()
    expect(await f.deps.keyStore.get('signup-temp')).toBeUndefined()
    expect(paths(f)).toEqual(['/v1/otp_init_v2', '/v1/otp_verify_v2'])
  })

  it('refuses a verification token not signed by the pinned key', async () => {
    const f = fakeDeps()
    await relayStub(f, { contact: 'alice@example.test', tokenSigner: generateP256KeyPair().privateKey }).pin(f.deps.local)
    const core = createCore(f.deps)
    await startSignupEmail(core, { email: 'alice@example.test' })
    await expect(verifySignupEmail(core, { code: 'ABCDEF123' })).rejects.toMatchObject({ code: 'SERVICE_UNVERIFIED' })
    expect((await readPending(f.deps.session, 'passkeySignup', core.now()))?.verificationToken).toBeUndefined()
    expect(paths(f)).toEqual(['/v1/otp_init_v2', '/v1/otp_verify_v2'])
  })

  it('refuses a target bundle not signed by the pinned key: the code is never sent', async () => {
    const f = fakeDeps()
    await relayStub(f, { contact: 'alice@example.test', bundleSigner: generateP256KeyPair().privateKey }).pin(f.deps.local)
    const core = createCore(f.deps)
    await expect(startSignupEmail(core, { email: 'alice@example.test' })).rejects.toMatchObject({ code: 'SERVICE_UNVERIFIED' })
    expect(await readPending(f.deps.session, 'passkeySignup', core.now())).toBeUndefined()
    expect(paths(f)).toEqual(['/v1/otp_init_v2'])
  })
})

describe('passkey sign-up with a verified email (real service and relay)', () => {
  let svc: TestService

  beforeAll(async () => {
    svc = await startTestService()
  }, 60_000)
  afterAll(async () => {
    await svc?.stop()
  })

  /** A fake browser whose fetch goes to the test service with the extension's Origin. */
  async function browser() {
    const f = fakeDeps()
    const calls: Array<{ path: string; body: any }> = []
    vi.mocked(f.deps.fetch).mockImplementation((async (url: string, init?: RequestInit) => {
      calls.push({ path: new URL(url).pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined })
      return fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: EXTENSION_ORIGIN } })
    }) as never)
    f.deps.now = () => Date.now()
    const core = createCore(f.deps)
    await pinService(f.deps.local, svc.url)
    return { f, core, calls }
  }

  /** The code of the newest message to `email` once there are more than `seen`. */
  async function codeFor(email: string, seen = 0): Promise<string> {
    for (let i = 0; i < 50; i++) {
      const { messages } = (await (await fetch(`${svc.url}/dev/messages`)).json()) as { messages: Array<{ to: string; text: string }> }
      const mine = messages.filter((x) => x.to === email)
      const code = mine.length > seen && mine[0] ? /code is:?\s*([A-Za-z0-9]+)/.exec(mine[0].text)?.[1] : undefined
      if (code) return code
      await new Promise((r) => setTimeout(r, 100))
    }
    throw new Error('no code')
  }

  it('verifies the email with a key-bound token, signs up with it and opens a passkey session', async () => {
    const { f, core, calls } = await browser()
    const email = `pk-${Date.now()}@example.test`
    await startSignupEmail(core, { email, userName: 'Pat' })
    const code = await codeFor(email)
    const verified = await verifySignupEmail(core, { code })
    expect(verified).toEqual({ email, verified: true, accountExists: false })
    const temp = await f.deps.keyStore.get('signup-temp')
    expect(isKeyPair(temp)).toBe(true)
    // The code crossed the relay only encrypted to the service's signed target key.
    const verifyCall = calls.find((c) => c.path === '/auth/v1/otp_verify_v2')
    expect(Object.keys(verifyCall?.body ?? {}).sort()).toEqual(['encryptedOtpBundle', 'otpId'])
    expect(JSON.stringify(calls)).not.toContain(code)
    const pending = await readPending(f.deps.session, 'passkeySignup', core.now())
    const tempKey = String(decodeJwtPayload(pending!.verificationToken!)?.public_key)
    expect(tempKey).toMatch(/^0[23][0-9a-f]{64}$/)
    expect(decodeJwtPayload(pending!.verificationToken!)).toMatchObject({ contact: email })

    const soft = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
    const record = await passkeySignup(core, registration(soft))
    expect(record).toMatchObject({ method: 'passkey', username: 'Pat' })
    const signup = calls.find((c) => c.path === '/auth/v1/signup_v2')!.body
    expect(signup).toMatchObject({ userEmail: email, verificationToken: pending!.verificationToken, userName: 'Pat' })
    expect(signup.apiKeys).toEqual([expect.objectContaining({ publicKey: tempKey, expirationSeconds: '60' })])
    expect(signup.clientSignature.publicKey).toBe(tempKey)
    expect(verifyClientSignature(signup.clientSignature)).toBe(true)
    expect(JSON.parse(signup.clientSignature.message)).toMatchObject({
      type: 'USAGE_TYPE_SIGNUP',
      tokenId: decodeJwtPayload(pending!.verificationToken!)?.id,
    })
    expect(await readPending(f.deps.session, 'passkeySignup', core.now())).toBeUndefined()
    expect(await f.deps.keyStore.get('signup-temp')).toBeUndefined()
    const { json } = await svc.post('/public/v1/query/get_user', { organizationId: record.organizationId, userId: record.userId })
    expect(json.user.userEmail).toBe(email)
    expect(json.user.authenticators).toHaveLength(1)

    // The same email again: the relay's account lookup says it exists; nothing is kept.
    const again = await browser()
    await startSignupEmail(again.core, { email })
    expect(await verifySignupEmail(again.core, { code: await codeFor(email, 1) })).toEqual({ email, verified: true, accountExists: true })
    expect(await readPending(again.f.deps.session, 'passkeySignup', again.core.now())).toBeUndefined()
    expect(await again.f.deps.keyStore.get('signup-temp')).toBeUndefined()
  })

  it('the relay refuses a token verified for another email (no account is made)', async () => {
    const { f, core, calls } = await browser()
    const email = `alice-${Date.now()}@example.test`
    const other = `bob-${Date.now()}@example.test`
    await startSignupEmail(core, { email })
    await verifySignupEmail(core, { code: await codeFor(email) })
    const pending = (await readPending(f.deps.session, 'passkeySignup', core.now()))!
    await writePending(f.deps.session, 'passkeySignup', { ...pending, email: other })
    const soft = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
    await expect(passkeySignup(core, registration(soft))).rejects.toMatchObject({
      status: 401,
      message: expect.stringMatching(/another contact/),
    })
    expect(calls.at(-1)?.path).toBe('/auth/v1/signup_v2')
    const { json } = await svc.post('/public/v1/query/list_suborgs', {
      organizationId: svc.admin.organizationId,
      filterType: 'EMAIL',
      filterValue: other,
    })
    expect(json.organizationIds).toEqual([])
    expect(await core.current()).toBeNull()
  })
})
