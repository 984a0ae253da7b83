/**
 * So no relay in the middle can plant a key in a sign-up (client side): right after a sign-up it
 * made, the extension reads the new
 * organization with its session key and opens it only when it holds exactly what this flow
 * created — one root user (threshold 1), the flow's own API keys, the passkey just registered, the
 * OAuth identity just used, the contact just verified. A fake browser whose fetch goes to the real
 * local service and its relay; only the relay is played by the test: "in the middle" (the body of
 * `/v1/signup_v2` rewritten on its way to the real relay) or "holding the operator's key" (the
 * account created by the relay itself through the service, with its own credential added).
 */
import { TurnkeyClient } from '@turnkey/http'
import { ApiKeyStamper } from '@turnkey/api-key-stamper'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createCore } from '@/src/extension/background/core'
import { loginWithOauth } from '@/src/extension/background/login/oauth'
import { startOtp, verifyOtp } from '@/src/extension/background/login/otp'
import { passkeySignup } from '@/src/extension/background/login/passkey'
import { startSignupEmail, verifySignupEmail } from '@/src/extension/background/login/signupEmail'
import { LAST_LOGIN_KEY } from '@/src/extension/background/login/lastLogin'
import { EXTENSION_ORIGIN } from '@/src/api/identity'
import { bytesToHex } from '@/src/crypto/encoding'
import { generateP256KeyPair } from '@/src/crypto/p256'
import { createSoftAuthenticator, randomChallenge, authenticatorParam } from '../../../../helpers/softAuthenticator'
import { adminTurnkeyClient, startTestService, type TestService } from '../../../../integration/helpers/service'
import { fakeDeps, pinService } from '../../fakeDeps'

const REDIRECT = 'https://enibeleniamgnfhbmpkkldfacbjikdfa.chromiumapp.org/oidc'
const REFUSED = /relay added a credential you did not create/i
let svc: TestService

beforeAll(async () => {
  svc = await startTestService()
}, 60_000)
afterAll(async () => {
  await svc?.stop()
})

/** The attacker's own API key (P-256, compressed hex), as a sign-up parameter. */
function attackerKey() {
  const kp = generateP256KeyPair()
  const publicKey = bytesToHex(kp.publicKey)
  return {
    publicKey,
    privateKey: bytesToHex(kp.privateKey),
    param: { apiKeyName: 'relay', publicKey, curveType: 'API_KEY_CURVE_P256' as const },
  }
}

type Relay = (path: string, body: any) => Promise<Response | undefined> | Response | undefined

/**
 * A fake browser: fetch goes to the test service with the extension's Origin; `relay` may answer a
 * relay path itself (or rewrite its body and forward it) — the relay in the middle.
 */
async function browser(opts: { flow?: (url: string) => Promise<string>; relay?: Relay } = {}) {
  const f = fakeDeps()
  const paths: string[] = []
  const send = (url: string, init?: RequestInit) =>
    fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), Origin: EXTENSION_ORIGIN } })
  vi.mocked(f.deps.fetch).mockImplementation((async (url: string, init?: RequestInit) => {
    const path = new URL(url).pathname
    paths.push(path)
    if (opts.relay && path.startsWith('/auth/')) {
      const body = init?.body ? JSON.parse(String(init.body)) : undefined
      const own = await opts.relay(path, body)
      if (own) return own
      return send(url, { ...init, body: JSON.stringify(body) })
    }
    return send(url, init)
  }) as never)
  f.deps.now = () => Date.now()
  const core = createCore({ ...f.deps, ...(opts.flow ? { webAuthFlow: opts.flow, authRedirectUrl: () => REDIRECT } : {}) })
  await pinService(f.deps.local, svc.url)
  return { f, core, paths }
}

/** Plays the person in the dev provider's window (its authorize page and email form). */
function signInAs(email: string) {
  return async (url: string) => {
    const u = new URL(url)
    const form = new URLSearchParams([...u.searchParams.entries(), ['email', email]])
    const res = await fetch(`${u.origin}${u.pathname}`, { method: 'POST', body: form, redirect: 'manual', headers: { Origin: u.origin } })
    expect(res.status).toBe(302)
    return res.headers.get('location') as string
  }
}

/** The code of the newest dev-mailbox message to `to`. */
async function codeFor(to: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const { messages } = (await (await fetch(`${svc.url}/dev/messages`)).json()) as { messages: Array<{ to: string; text: string }> }
    const code = /code is:?\s*([A-Za-z0-9]+)/.exec(messages.find((m) => m.to === to)?.text ?? '')?.[1]
    if (code) return code
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no code for ${to}`)
}

/** The sub-organization the service made last (the relay's sign-up), read by the operator. */
async function newestSubOrg(): Promise<string> {
  const { organizationIds } = await adminTurnkeyClient(svc).getSubOrgIds({ organizationId: svc.admin.organizationId })
  return organizationIds.at(-1) as string
}

/** The relay holding the operator's key: it creates the account itself, with `extra` added to the root user. */
async function relayCreates(
  body: any,
  extra: { apiKeys?: unknown[]; authenticators?: unknown[]; userEmail?: string; rootUser?: unknown },
): Promise<Response> {
  const admin = adminTurnkeyClient(svc)
  const created = await admin.createSubOrganization({
    type: 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
    timestampMs: String(Date.now()),
    organizationId: svc.admin.organizationId,
    parameters: {
      subOrganizationName: `relay-${Date.now()}`,
      rootUsers: [
        {
          userName: body.userName,
          ...(extra.userEmail || body.userEmail ? { userEmail: extra.userEmail ?? body.userEmail } : {}),
          ...(body.userPhoneNumber ? { userPhoneNumber: body.userPhoneNumber } : {}),
          apiKeys: [...body.apiKeys, ...(extra.apiKeys ?? [])] as never,
          authenticators: [...body.authenticators, ...(extra.authenticators ?? [])] as never,
          oauthProviders: body.oauthProviders,
        },
        ...(extra.rootUser ? [extra.rootUser as never] : []),
      ],
      rootQuorumThreshold: 1,
      ...(body.wallet ? { wallet: body.wallet } : {}),
    },
  })
  const r = created.activity.result.createSubOrganizationResultV8!
  return Response.json({ organizationId: r.subOrganizationId, userId: r.rootUserIds?.[0] })
}

/** Nothing of the refused account is kept: no session, no key, no "last login". */
async function expectNothingKept(b: Awaited<ReturnType<typeof browser>>) {
  expect(await b.core.current()).toBeNull()
  expect(await b.f.deps.keyStore.get('session')).toBeUndefined()
  expect(b.f.deps.local.data.get(LAST_LOGIN_KEY)).toBeUndefined()
}

/** The API keys of the (only) user of `organizationId`, read by the operator. */
async function apiKeysOf(organizationId: string): Promise<string[]> {
  const admin = adminTurnkeyClient(svc)
  const { users } = await admin.getUsers({ organizationId })
  return (users[0]?.apiKeys ?? []).map((k) => k.credential.publicKey.toLowerCase())
}

describe('OAuth sign-up through a relay in the middle (no verification token, no client signature)', () => {
  const issuer = () => `${svc.url}/dev/oidc`

  it('refuses an account the relay added its own API key to; revokes its session key; keeps nothing', async () => {
    const attacker = attackerKey()
    const b = await browser({
      flow: signInAs(`victim-key-${Date.now()}@example.test`),
      relay: (path, body) => {
        if (path === '/auth/v1/signup_v2') body.apiKeys = [...body.apiKeys, attacker.param]
        return undefined
      },
    })
    await expect(loginWithOauth(b.core, { issuer: issuer() })).rejects.toMatchObject({
      code: 'SERVICE_UNVERIFIED',
      message: expect.stringMatching(REFUSED),
    })
    expect(b.paths).toContain('/auth/v1/signup_v2')
    await expectNothingKept(b)
    // The account exists (the relay made it) but the extension's session key no longer works in it.
    expect(await apiKeysOf(await newestSubOrg())).toEqual([attacker.publicKey])
    // What the attacker planted still works: that is why the extension must not open the account.
    const mallory = new TurnkeyClient(
      { baseUrl: svc.url },
      new ApiKeyStamper({ apiPublicKey: attacker.publicKey, apiPrivateKey: attacker.privateKey }),
    )
    expect((await mallory.getWhoami({ organizationId: await newestSubOrg() })).organizationId).toBe(await newestSubOrg())
  })

  it('refuses an account the relay added its own OAuth identity to', async () => {
    const theirs = await svc.rt.devIdp!.issueIdToken({ email: `mallory-${Date.now()}@example.test` })
    const b = await browser({
      flow: signInAs(`victim-oidc-${Date.now()}@example.test`),
      relay: (path, body) => {
        if (path === '/auth/v1/signup_v2') body.oauthProviders = [...body.oauthProviders, { providerName: 'Sigil dev', oidcToken: theirs }]
        return undefined
      },
    })
    await expect(loginWithOauth(b.core, { issuer: issuer() })).rejects.toMatchObject({
      code: 'SERVICE_UNVERIFIED',
      message: expect.stringMatching(REFUSED),
    })
    await expectNothingKept(b)
  })

  it('refuses an account the relay added a passkey to', async () => {
    const soft = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
    const b = await browser({
      flow: signInAs(`victim-pk-${Date.now()}@example.test`),
      relay: (path, body) => {
        if (path === '/auth/v1/signup_v2') body.authenticators = [authenticatorParam(soft, randomChallenge(), 'relay')]
        return undefined
      },
    })
    await expect(loginWithOauth(b.core, { issuer: issuer() })).rejects.toMatchObject({
      code: 'SERVICE_UNVERIFIED',
      message: expect.stringMatching(REFUSED),
    })
    await expectNothingKept(b)
  })

  it('refuses an account the relay (holding the operator key) gave its own email address: the way in by email code', async () => {
    const b = await browser({
      flow: signInAs(`victim-mail-${Date.now()}@example.test`),
      relay: (path, body) =>
        path === '/auth/v1/signup_v2' ? relayCreates(body, { userEmail: `mallory-${Date.now()}@example.test` }) : undefined,
    })
    await expect(loginWithOauth(b.core, { issuer: issuer() })).rejects.toMatchObject({
      code: 'SERVICE_UNVERIFIED',
      message: expect.stringMatching(/relay added a credential you did not create .*\(an email address\)/i),
    })
    await expectNothingKept(b)
  })

  it('refuses an account the relay (holding the operator key) made with a second root user of its own', async () => {
    const attacker = attackerKey()
    const b = await browser({
      flow: signInAs(`victim-user-${Date.now()}@example.test`),
      relay: (path, body) =>
        path === '/auth/v1/signup_v2'
          ? relayCreates(body, {
              rootUser: { userName: 'relay', apiKeys: [attacker.param], authenticators: [], oauthProviders: [] },
            })
          : undefined,
    })
    await expect(loginWithOauth(b.core, { issuer: issuer() })).rejects.toMatchObject({
      code: 'SERVICE_UNVERIFIED',
      message: expect.stringMatching(/relay added a credential you did not create .*\(another user, another root user\)/i),
    })
    await expectNothingKept(b)
  })

  it('an honest relay: the new account opens (the check refuses nothing it should not)', async () => {
    const email = `honest-${Date.now()}@example.test`
    const b = await browser({ flow: signInAs(email), relay: () => undefined })
    const record = await loginWithOauth(b.core, { issuer: issuer() })
    expect(record).toMatchObject({ method: 'oauth', username: email })
    expect(await b.core.current()).not.toBeNull()
  })
})

describe('sign-ups with a verification token, through a relay holding the operator key', () => {
  it('OTP: refuses an account the relay made with its own API key beside the session key', async () => {
    const attacker = attackerKey()
    const email = `otp-victim-${Date.now()}@example.test`
    const b = await browser({
      relay: (path, body) => (path === '/auth/v1/signup_v2' ? relayCreates(body, { apiKeys: [attacker.param] }) : undefined),
    })
    await startOtp(b.core, { otpType: 'OTP_TYPE_EMAIL', contact: email })
    await expect(verifyOtp(b.core, { code: await codeFor(email) })).rejects.toMatchObject({
      code: 'SERVICE_UNVERIFIED',
      message: expect.stringMatching(REFUSED),
    })
    await expectNothingKept(b)
    expect(await apiKeysOf(await newestSubOrg())).toEqual([attacker.publicKey])
  })

  it('OTP: an honest relay signs up and the account opens', async () => {
    const email = `otp-honest-${Date.now()}@example.test`
    const b = await browser()
    await startOtp(b.core, { otpType: 'OTP_TYPE_EMAIL', contact: email })
    const record = await verifyOtp(b.core, { code: await codeFor(email) })
    expect(record).toMatchObject({ method: 'email', username: email })
    expect(b.paths).toContain('/auth/v1/signup_v2')
  })

  it('passkey: refuses an account the relay made with a second passkey of its own', async () => {
    const email = `pk-victim-${Date.now()}@example.test`
    const theirs = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
    const b = await browser({
      relay: (path, body) =>
        path === '/auth/v1/signup_v2'
          ? relayCreates(body, { authenticators: [authenticatorParam(theirs, randomChallenge(), 'relay')] })
          : undefined,
    })
    await startSignupEmail(b.core, { email })
    expect(await verifySignupEmail(b.core, { code: await codeFor(email) })).toMatchObject({ verified: true, accountExists: false })
    const mine = createSoftAuthenticator({ rpId: EXTENSION_ORIGIN, origin: EXTENSION_ORIGIN })
    const challenge = randomChallenge()
    await expect(
      passkeySignup(b.core, { authenticatorName: 'Sigil passkey', challenge, attestation: mine.register(challenge).attestation }),
    ).rejects.toMatchObject({ code: 'SERVICE_UNVERIFIED', message: expect.stringMatching(REFUSED) })
    await expectNothingKept(b)
  })
})
