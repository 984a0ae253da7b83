import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { normalContact } from '../api/contact.js'
import { AccountRequest } from '../api/relay/account.js'
import { AcceptInvitationRequest } from '../api/relay/invitation.js'
import { OauthLoginRequest, OtpLoginRequest } from '../api/relay/login.js'
import { Oauth2AuthenticateRequest } from '../api/relay/oauth2.js'
import { OtpAuthRequest, OtpInitRequest, OtpVerifyRequest, OtpVerifyV2Request } from '../api/relay/otp.js'
import { RecoveryInitRequest } from '../api/relay/recovery.js'
import { SignupRequest } from '../api/relay/signup.js'
import { RELAY_IDENTITY_PATH } from '../api/serviceIdentity.js'
import { SigilError } from '../api/errors.js'
import { parseOrThrow } from '../api/validation.js'
import { hexToBytes } from '../crypto/encoding.js'
import { decodeJwtPayload, verifyVerificationToken } from '../crypto/jwt.js'
import { uncompressP256PublicKey } from '../crypto/p256.js'
import { requestOriginAllowed } from '../service/auth/origins.js'
import { limitBody, readJson } from '../service/http/body.js'
import { cors } from '../service/http/cors.js'
import { errorResponse } from '../service/http/errors.js'
import { DEFAULT_LIMITS, DEFAULT_WALLET } from './defaults.js'
import type { RelayOptions } from './options.js'
import { createRateLimiter } from './rateLimit.js'
import { upstreamFactory, type Upstream } from './upstream.js'

const CORS_HEADERS = 'Content-Type, X-Client-Version, X-Auth-Proxy-Config-ID, X-Captcha-Token'
const ACCOUNT_KEY = { EMAIL: 'email', PHONE_NUMBER: 'phone number', PUBLIC_KEY: 'key', OIDC_TOKEN: 'identity' } as const

type OtpInfo = { contact: string; otpType: 'OTP_TYPE_EMAIL' | 'OTP_TYPE_SMS'; expires: number }

function clientAddress(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined
  return env?.incoming?.socket?.remoteAddress ?? 'unknown'
}

/**
 * The auth relay (wire-formats B6 auth-proxy paths): lets a client that is not yet
 * logged in sign up, get OTPs, log in and start recovery, acting upstream as the parent
 * organization with its API key. It checks Origin, rate-limits per client address and per
 * contact, and only ever relays ciphertext (credential bundles) and public material.
 */
export function createRelayApp(o: RelayOptions): Hono {
  const now = o.now ?? Date.now
  const limits = o.limits ?? DEFAULT_LIMITS
  const perAddress = createRateLimiter(limits.perAddress, now)
  const perContact = createRateLimiter(limits.perContact, now)
  const upstreamOf = upstreamFactory(o)
  const appName = o.appName ?? 'Sigil'
  const otps = new Map<string, OtpInfo>()
  const oauthProviders = o.oauthProviders ?? (() => [])
  const app = new Hono()

  const rememberOtp = (otpId: string, info: Omit<OtpInfo, 'expires'>) => {
    const t = now()
    if (otps.size > 10_000) for (const [k, v] of otps) if (v.expires < t) otps.delete(k)
    otps.set(otpId, { ...info, expires: t + 15 * 60_000 })
  }
  const limitContact = (contact: string) => {
    if (!perContact.hit(contact)) throw new SigilError('RATE_LIMITED', 'too many requests for this contact, try again later')
  }

  const allowed = (origin: string) => requestOriginAllowed(origin, o.allowedOrigins)
  if (o.cors) app.use('*', cors({ allowed, methods: 'POST, OPTIONS', headers: CORS_HEADERS }))
  app.use('*', async (c, next) => {
    const origin = c.req.header('Origin')
    if (origin === undefined || !allowed(origin)) {
      return errorResponse(c, new SigilError('ORIGIN_NOT_ALLOWED', 'origin is not allowed to use this relay'))
    }
    if (!perAddress.hit(clientAddress(c))) return errorResponse(c, new SigilError('RATE_LIMITED', 'too many requests, try again later'))
    await next()
  })

  /** Registers `POST path`: body parsed by `schema`, errors as wire bodies (A3), upstream errors passed through. */
  function route<S extends z.ZodType>(path: string, schema: S, fn: (u: Upstream, body: z.output<S>) => Promise<unknown>) {
    app.post(path, limitBody, async (c) => {
      try {
        const json = await readJson(c, { emptyIsObject: true })
        return c.json((await fn(upstreamOf(c), parseOrThrow(schema, json, ''))) as object)
      } catch (e) {
        return errorResponse(c, e)
      }
    })
  }

  /**
   * The one account a verified contact, OAuth identity or key opens (the service finds verified
   * contacts only). Two accounts claiming it are refused, never guessed between: a login lands only
   * in the account whose contact was proven.
   */
  async function findAccount(u: Upstream, filterType: 'EMAIL' | 'PHONE_NUMBER' | 'PUBLIC_KEY' | 'OIDC_TOKEN', filterValue: string) {
    const { organizationIds } = await u.client.listSuborgs({ organizationId: u.parentOrgId, filterType, filterValue })
    if (organizationIds.length > 1) {
      throw new SigilError('FAILED_PRECONDITION', `more than one account claims this ${ACCOUNT_KEY[filterType]}: ask the operator`)
    }
    return organizationIds[0]
  }

  /** Checks a verification token of the upstream; its contact must be `contact` when given. */
  async function checkToken(u: Upstream, token: string, contact?: { otpType: string; value: string }) {
    const v = verifyVerificationToken(token, await u.verifierKey(), { nowMs: now() })
    if (!v.ok) throw new SigilError('TOKEN_INVALID', 'verificationToken: not a valid, unexpired verification token')
    if (contact && (v.claims.verification_type !== contact.otpType || v.claims.contact !== normalContact(contact.otpType, contact.value))) {
      throw new SigilError('TOKEN_INVALID', 'verificationToken: was issued for another contact')
    }
    return v.claims
  }

  async function createAccount(
    u: Upstream,
    user: { userName: string; userEmail?: string; userPhoneNumber?: string },
    extra: Partial<z.output<typeof SignupRequest>> = {},
  ) {
    const r = await u.client.createSubOrganization({
      organizationId: u.parentOrgId,
      subOrganizationName: extra.organizationName || `sub-org-${now()}`,
      rootUsers: [
        {
          userName: user.userName,
          ...(user.userEmail ? { userEmail: user.userEmail } : {}),
          ...(user.userPhoneNumber ? { userPhoneNumber: user.userPhoneNumber } : {}),
          apiKeys: extra.apiKeys ?? [],
          authenticators: extra.authenticators ?? [],
          oauthProviders: extra.oauthProviders ?? [],
        },
      ],
      rootQuorumThreshold: 1,
      wallet: extra.wallet ?? DEFAULT_WALLET,
      ...(extra.verificationToken ? { verificationToken: extra.verificationToken } : {}),
      ...(extra.clientSignature ? { clientSignature: extra.clientSignature } : {}),
    })
    return { organizationId: r.subOrganizationId, userId: r.rootUserIds?.[0] ?? '', ...(r.wallet ? { wallet: r.wallet } : {}) }
  }

  // The service rate-limits OTPs per contact (durably, with the SDK-recognised error): the relay
  // passes that limit on rather than keeping a second count of its own.
  const initOtp = (v2: boolean) => async (u: Upstream, b: z.output<typeof OtpInitRequest>) => {
    const params = {
      organizationId: u.parentOrgId,
      otpType: b.otpType,
      contact: b.contact,
      appName,
      ...(b.emailCustomization ? { emailCustomization: b.emailCustomization } : {}),
    }
    if (v2) {
      const r = await u.client.initOtp(params)
      rememberOtp(r.otpId, { contact: normalContact(b.otpType, b.contact), otpType: b.otpType })
      return { otpId: r.otpId, otpEncryptionTargetBundle: r.otpEncryptionTargetBundle }
    }
    const r = await u.client.initOtpAuth(params)
    rememberOtp(r.otpId, { contact: normalContact(b.otpType, b.contact), otpType: b.otpType })
    return { otpId: r.otpId }
  }
  route('/v1/otp_init', OtpInitRequest, initOtp(false))
  route('/v1/otp_init_v2', OtpInitRequest, initOtp(true))

  route('/v1/otp_verify', OtpVerifyRequest, async (u, b) => {
    const r = await u.client.verifyOtpV1({
      organizationId: u.parentOrgId,
      otpId: b.otpId,
      otpCode: b.otpCode,
      ...(b.publicKey ? { publicKey: b.publicKey } : {}),
    })
    return { verificationToken: r.verificationToken }
  })
  route('/v1/otp_verify_v2', OtpVerifyV2Request, async (u, b) => {
    const r = await u.client.verifyOtp({ organizationId: u.parentOrgId, otpId: b.otpId, encryptedOtpBundle: b.encryptedOtpBundle })
    return { verificationToken: r.verificationToken }
  })

  const otpLogin = async (u: Upstream, b: z.output<typeof OtpLoginRequest>) => {
    const claims = decodeJwtPayload(b.verificationToken)
    const contact = typeof claims?.contact === 'string' ? claims.contact : undefined
    const kind = claims?.verification_type === 'OTP_TYPE_SMS' ? 'PHONE_NUMBER' : 'EMAIL'
    const organizationId = b.organizationId ?? (contact ? await findAccount(u, kind, contact) : undefined)
    if (!organizationId) throw new SigilError('NOT_FOUND', 'no account for the verified contact')
    const common = {
      organizationId,
      verificationToken: b.verificationToken,
      publicKey: b.publicKey,
      ...(b.invalidateExisting !== undefined ? { invalidateExisting: b.invalidateExisting } : {}),
    }
    const r = b.clientSignature
      ? await u.client.otpLogin({ ...common, clientSignature: b.clientSignature })
      : await u.client.otpLoginV1(common)
    return { session: r.session }
  }
  route('/v1/otp_login', OtpLoginRequest, otpLogin)
  route('/v1/otp_login_v2', OtpLoginRequest, otpLogin)

  const signup = async (u: Upstream, b: z.output<typeof SignupRequest>) => {
    if (b.userEmail && b.userPhoneNumber) throw new SigilError('INVALID_ARGUMENT', 'userEmail: give either userEmail or userPhoneNumber')
    const contact = b.userEmail
      ? { otpType: 'OTP_TYPE_EMAIL', value: b.userEmail, filter: 'EMAIL' as const }
      : b.userPhoneNumber
        ? { otpType: 'OTP_TYPE_SMS', value: b.userPhoneNumber, filter: 'PHONE_NUMBER' as const }
        : undefined
    if (contact) {
      if (!b.verificationToken)
        throw new SigilError('INVALID_ARGUMENT', 'verificationToken: required to sign up with an email or phone number')
      await checkToken(u, b.verificationToken, contact)
      // The service checks that it signs exactly this sign-up with the token's key, so the relay cannot change it.
      if (!b.clientSignature) {
        throw new SigilError(
          'INVALID_ARGUMENT',
          'clientSignature: required with a verificationToken (the sign-up message signed by its key)',
        )
      }
      limitContact(normalContact(contact.otpType, contact.value))
      if (await findAccount(u, contact.filter, normalContact(contact.otpType, contact.value))) {
        throw new SigilError('ALREADY_EXISTS', 'an account with this contact already exists')
      }
    }
    for (const [i, p] of b.oauthProviders.entries()) {
      if (p.oidcClaims && !p.oidcToken) {
        throw new SigilError('INVALID_ARGUMENT', `oauthProviders[${i}].oidcToken: a sign-up proves its OAuth identity with an ID token`)
      }
      if (p.oidcToken && (await findAccount(u, 'OIDC_TOKEN', p.oidcToken))) {
        throw new SigilError('ALREADY_EXISTS', 'an account with this OAuth identity already exists')
      }
    }
    if (!contact && b.authenticators.length === 0 && b.apiKeys.length === 0 && b.oauthProviders.length === 0) {
      throw new SigilError('INVALID_ARGUMENT', 'authenticators: a sign-up needs a contact, a passkey or a key')
    }
    return createAccount(
      u,
      {
        userName: b.userName || b.userEmail || b.userPhoneNumber || `user-${now()}`,
        ...(b.userEmail ? { userEmail: normalContact('OTP_TYPE_EMAIL', b.userEmail) } : {}),
        ...(b.userPhoneNumber ? { userPhoneNumber: normalContact('OTP_TYPE_SMS', b.userPhoneNumber) } : {}),
      },
      b,
    )
  }
  route('/v1/oauth_login', OauthLoginRequest, async (u, b) => {
    const organizationId = b.organizationId ?? (await findAccount(u, 'OIDC_TOKEN', b.oidcToken))
    if (!organizationId) throw new SigilError('NOT_FOUND', 'no account for this OAuth identity')
    const r = await u.client.oauthLogin({
      organizationId,
      oidcToken: b.oidcToken,
      publicKey: b.publicKey,
      ...(b.invalidateExisting !== undefined ? { invalidateExisting: b.invalidateExisting } : {}),
    })
    return { session: r.session }
  })
  route('/v1/oauth2_authenticate', Oauth2AuthenticateRequest, async (u, b) => {
    // The parent organization's credential for this provider and client id holds the client secret.
    const { oauth2Credentials } = await u.client.listOauth2Credentials({ organizationId: u.parentOrgId })
    const credential = oauth2Credentials.find((c) => c.provider === b.provider && c.clientId === b.clientId)
    if (!credential) throw new SigilError('NOT_FOUND', 'clientId: no OAuth 2.0 credential of this app for this provider and client id')
    const r = await u.client.oauth2Authenticate({
      organizationId: u.parentOrgId,
      oauth2CredentialId: credential.oauth2CredentialId,
      authCode: b.authCode,
      redirectUri: b.redirectUri,
      codeVerifier: b.codeVerifier,
      nonce: b.nonce,
    })
    return { oidcToken: r.oidcToken }
  })
  route('/v1/signup', SignupRequest, signup)
  route('/v1/signup_v2', SignupRequest, signup)

  route('/v1/account', AccountRequest, async (u, b) => {
    if (b.filterType === 'OIDC_CLAIMS') {
      throw new SigilError('INVALID_ARGUMENT', 'filterType: look accounts up by OIDC_TOKEN (claims alone prove nothing)')
    }
    if (b.filterType === 'OIDC_TOKEN') {
      // The upstream verifies the token (signature, trusted issuer, audience, expiry): proof of the identity.
      const organizationId = await findAccount(u, 'OIDC_TOKEN', b.oidcToken ?? b.filterValue)
      return organizationId ? { organizationId } : {}
    }
    if (b.filterType === 'PUBLIC_KEY') {
      const organizationId = await findAccount(u, 'PUBLIC_KEY', b.filterValue)
      return organizationId ? { organizationId } : {}
    }
    // Looking up by email or phone needs proof of that contact: no account enumeration.
    const otpType = b.filterType === 'EMAIL' ? 'OTP_TYPE_EMAIL' : 'OTP_TYPE_SMS'
    if (!b.verificationToken) throw new SigilError('INVALID_ARGUMENT', 'verificationToken: required for EMAIL and PHONE_NUMBER lookups')
    await checkToken(u, b.verificationToken, { otpType, value: b.filterValue })
    const organizationId = await findAccount(u, b.filterType, normalContact(otpType, b.filterValue))
    return organizationId ? { organizationId } : {}
  })

  /** The parent organization's OAuth 2.0 apps (`x`, `discord` → client id), for /v1/oauth2_authenticate; none when it cannot tell. */
  async function oauth2ClientIds(u: Upstream): Promise<Record<string, string>> {
    try {
      const { oauth2Credentials } = await u.client.listOauth2Credentials({ organizationId: u.parentOrgId })
      return Object.fromEntries(oauth2Credentials.map((c) => [c.provider === 'OAUTH2_PROVIDER_X' ? 'x' : 'discord', c.clientId]))
    } catch {
      return {}
    }
  }
  route('/v1/wallet_kit_config', z.object({}).loose(), async (u) => {
    // `oauth` for the OIDC providers; `x` / `discord` (with their client ids) where the app has an OAuth 2.0 credential.
    const oauth2 = await oauth2ClientIds(u)
    return {
      enabledProviders: ['email', 'sms', 'passkey', ...(oauthProviders().length ? ['oauth'] : []), ...Object.keys(oauth2)],
      oauthClientIds: { ...Object.fromEntries(oauthProviders().map((p) => [p.name, p.clientId])), ...oauth2 },
      // Sigil: each provider as a client runs its authorization-code flow (the extension's "Continue with …").
      oauthProviders: oauthProviders(),
      sessionExpirationSeconds: '900',
      organizationId: u.parentOrgId,
      otpAlphanumeric: true,
      otpLength: '9',
    }
  })
  // Which service this relay works for: its upstream's signed identity, verbatim.
  route(RELAY_IDENTITY_PATH, z.object({}).loose(), async (u) => u.identity())
  route('/v1/wallet_kit_client_params', z.object({}).loose(), async () => ({}))

  route('/v1/otp_auth', OtpAuthRequest, async (u, b) => {
    const otp = otps.get(b.otpId)
    if (!otp || otp.expires < now()) throw new SigilError('NOT_FOUND', 'otpId: unknown OTP (start it with /v1/otp_init on this relay)')
    limitContact(otp.contact)
    const filter = otp.otpType === 'OTP_TYPE_EMAIL' ? 'EMAIL' : 'PHONE_NUMBER'
    const existing = await findAccount(u, filter, otp.contact)
    if (existing) {
      const r = await u.client.otpAuth({ organizationId: existing, otpId: b.otpId, otpCode: b.otpCode, targetPublicKey: b.targetPublicKey })
      otps.delete(b.otpId)
      return { organizationId: existing, userId: r.userId, apiKeyId: r.apiKeyId ?? '', credentialBundle: r.credentialBundle ?? '' }
    }
    // A new contact: the account is made for it and the code is checked there, where otp_auth opens
    // a session for the key the client chose. As the parent this relay starts auth flows in the
    // account but can never add a key of its own to it (custody), so a wrong code makes
    // the account go again: nothing of it stays.
    const account = await createAccount(u, {
      userName: otp.contact,
      ...(otp.otpType === 'OTP_TYPE_EMAIL' ? { userEmail: otp.contact } : { userPhoneNumber: otp.contact }),
    })
    try {
      const r = await u.client.otpAuth({
        organizationId: account.organizationId,
        otpId: b.otpId,
        otpCode: b.otpCode,
        targetPublicKey: b.targetPublicKey,
      })
      otps.delete(b.otpId)
      return {
        organizationId: account.organizationId,
        userId: r.userId,
        apiKeyId: r.apiKeyId ?? '',
        credentialBundle: r.credentialBundle ?? '',
      }
    } catch (e) {
      await u.client.deleteSubOrganization({ organizationId: account.organizationId, deleteWithoutExport: true }).catch(() => undefined)
      throw e
    }
  })

  route('/v1/recovery_init', RecoveryInitRequest, async (u, b) => {
    const email = normalContact('OTP_TYPE_EMAIL', b.email)
    limitContact(email)
    // No account enumeration: a bad key fails alike for every email, and an unknown email gets
    // the same answer as a known one (ids that name nothing; no mail is sent).
    try {
      uncompressP256PublicKey(hexToBytes(b.targetPublicKey, 'targetPublicKey'), 'targetPublicKey')
    } catch {
      throw new SigilError('INVALID_ARGUMENT', 'targetPublicKey: must be a hex P-256 public key')
    }
    const organizationId = await findAccount(u, 'EMAIL', email)
    if (!organizationId) return { organizationId: crypto.randomUUID(), userId: crypto.randomUUID() }
    const r = await u.client.initUserEmailRecovery({
      organizationId,
      email,
      targetPublicKey: b.targetPublicKey,
      emailCustomization: { appName },
    })
    return { organizationId, userId: r.userId }
  })

  // An invitee has no credential yet: the relay submits the acceptance as the parent; the
  // invitation's code (the passkey's registration challenge) is what proves the invitee.
  route('/v1/accept_invitation', AcceptInvitationRequest, async (u, b) => {
    const r = await u.client.acceptInvitation({
      organizationId: b.organizationId,
      invitationId: b.invitationId,
      userId: b.userId,
      authenticator: b.authenticator,
    })
    return { organizationId: b.organizationId, invitationId: r.invitationId, userId: r.userId }
  })

  app.notFound((c) => errorResponse(c, new SigilError('NOT_FOUND', `no such relay endpoint: ${c.req.method} ${c.req.path}`)))
  app.onError((err, c) => errorResponse(c, err))
  return app
}
