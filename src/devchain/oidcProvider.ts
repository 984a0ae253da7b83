/**
 * The development identity provider, served under `/dev/oidc` when not in production:
 * an OpenID Connect issuer whose users type an email address and get an ID token, so "Continue
 * with …" in the extension, the relay's OAuth paths and the tests work offline.
 *
 * - `GET  /dev/oidc/.well-known/openid-configuration` — discovery
 * - `GET  /dev/oidc/jwks` — its ES256 public key (made at start; tokens do not outlive the process)
 * - `GET  /dev/oidc/authorize` — authorization-code flow with PKCE (S256 only): a page asking for an email
 * - `POST /dev/oidc/authorize` — the page's form: a one-time code (60 s), redirected to `redirect_uri`
 * - `POST /dev/oidc/token` — code + `code_verifier` → `{id_token, access_token, …}`
 * - `GET  /dev/oidc/userinfo` — who the access token is for, in X's (`{data: {id, username}}`) and
 *   Discord's (`{id, username, email, verified}`) who-am-I shapes at once, so oauth2_authenticate runs offline
 *
 * Its clients: {@link DEV_OIDC_CLIENT_ID} (public, no secret: the extension's) and
 * {@link DEV_OAUTH2_CLIENT_ID} (confidential, its secret {@link DEV_OAUTH2_CLIENT_SECRET} checked at the
 * token endpoint: what an OAuth 2.0 credential of the service names). The ID token's `sub` is derived
 * from the email, so the same email is the same identity. The composition root (src/server/start.ts)
 * serves it in development and adds it to the issuers the service trusts.
 */
import { timingSafeEqual } from 'node:crypto'
import { sha256 } from '@noble/hashes/sha2.js'
import type { DevCrossOrigin, ServiceApp } from '../service/http/app.js'
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose'
import { base64UrlEncode, bytesToHex, utf8Encode } from '../crypto/encoding.js'
import type { TrustedIssuer } from '../service/oidc/issuers.js'

export const DEV_OIDC_PATH = '/dev/oidc'
/** The dev provider's one registered client (the extension's, and the tests'). */
export const DEV_OIDC_CLIENT_ID = 'sigil-dev'
/** Its confidential client, standing for an X or Discord app in development (create_oauth2_credential). */
export const DEV_OAUTH2_CLIENT_ID = 'sigil-dev-oauth2'
/** That client's secret: published, development only. */
export const DEV_OAUTH2_CLIENT_SECRET = 'sigil-dev-oauth2-secret'
/**
 * Its routes other origins use: discovery and keys are public documents; the token endpoint answers
 * the extension (its "Continue with …" exchanges the code from its background).
 */
export const DEV_OIDC_CROSS_ORIGIN: DevCrossOrigin = {
  anyOrigin: [`${DEV_OIDC_PATH}/jwks`, `${DEV_OIDC_PATH}/.well-known/openid-configuration`],
  extension: [`${DEV_OIDC_PATH}/token`],
}
const CODE_TTL_MS = 60_000
const TOKEN_TTL_S = 600
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{1,63}$/

export type DevIdentityProvider = {
  /** Its issuer URL now: the service's public URL (or listening address) + `/dev/oidc`. */
  issuer(): string
  /** The issuer as the service's verifier trusts it (keys in hand, audience the dev client). */
  trusted(): TrustedIssuer
  /** Issues an ID token directly (tests and tools; the HTTP flow uses the same). */
  issueIdToken(o: {
    email: string
    nonce?: string | undefined
    audience?: string
    expiresInSeconds?: number
    iatSeconds?: number
  }): Promise<string>
  /** Mounts the routes on the service's app. */
  mount(app: ServiceApp): void
}

/** An access token the token endpoint gave, for the userinfo endpoint. */
type IssuedAccess = { email: string; expires: number }

type PendingCode = { clientId: string; redirectUri: string; challenge: string; nonce: string | undefined; email: string; expires: number }

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c] ?? c)

/** The `sub` of an email: stable, not the address itself. */
export function devSubject(email: string): string {
  return `dev-${bytesToHex(sha256(utf8Encode(email.trim().toLowerCase()))).slice(0, 32)}`
}

/** A redirect URI the dev provider sends codes to: https anywhere, http on loopback only. */
function redirectAllowed(uri: string): boolean {
  try {
    const u = new URL(uri)
    if (u.hash) return false
    if (u.protocol === 'https:') return true
    return u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)
  } catch {
    return false
  }
}

export async function createDevIdentityProvider(o: { baseUrl: () => string; now: () => number }): Promise<DevIdentityProvider> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true })
  const jwk: JWK = await exportJWK(publicKey)
  jwk.kid = await calculateJwkThumbprint(jwk)
  jwk.alg = 'ES256'
  jwk.use = 'sig'
  // One document for the life of the provider: the verifier keeps the keys it imported per document.
  const keySet = { keys: [jwk as { kty: string; kid?: string }] }
  const codes = new Map<string, PendingCode>()
  const accessTokens = new Map<string, IssuedAccess>()
  const issuer = () => `${o.baseUrl().replace(/\/+$/, '')}${DEV_OIDC_PATH}`

  async function issueIdToken(t: Parameters<DevIdentityProvider['issueIdToken']>[0]): Promise<string> {
    const email = t.email.trim().toLowerCase()
    const iat = t.iatSeconds ?? Math.floor(o.now() / 1000)
    const claims: Record<string, unknown> = { email, email_verified: true, auth_time: iat }
    if (t.nonce !== undefined) claims.nonce = t.nonce
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid: jwk.kid as string, typ: 'JWT' })
      .setIssuer(issuer())
      .setSubject(devSubject(email))
      .setAudience(t.audience ?? DEV_OIDC_CLIENT_ID)
      .setIssuedAt(iat)
      .setExpirationTime(iat + (t.expiresInSeconds ?? TOKEN_TTL_S))
      .sign(privateKey)
  }

  function sweep() {
    const now = o.now()
    for (const [k, v] of codes) if (v.expires < now) codes.delete(k)
    for (const [k, v] of accessTokens) if (v.expires < now) accessTokens.delete(k)
  }

  /** The authorization request's parameters, checked; a sentence naming the bad one otherwise. */
  function authorizeRequest(
    q: Record<string, string | undefined>,
  ): { error: string } | { ok: Omit<PendingCode, 'email' | 'expires'> & { state: string | undefined } } {
    if (q.client_id !== DEV_OIDC_CLIENT_ID && q.client_id !== DEV_OAUTH2_CLIENT_ID)
      return { error: `client_id: unknown client (this provider knows "${DEV_OIDC_CLIENT_ID}" and "${DEV_OAUTH2_CLIENT_ID}")` }
    if (!q.redirect_uri || !redirectAllowed(q.redirect_uri))
      return { error: 'redirect_uri: must be an https URL, or http on 127.0.0.1/localhost' }
    if (q.response_type !== 'code') return { error: 'response_type: only "code" (authorization-code flow with PKCE)' }
    // The OAuth 2.0 client stands for X or Discord, whose scopes are their own (users.read, identify…).
    if (q.client_id === DEV_OIDC_CLIENT_ID && !q.scope?.split(' ').includes('openid')) return { error: 'scope: must include openid' }
    if (!q.code_challenge || !/^[A-Za-z0-9_-]{43,128}$/.test(q.code_challenge)) return { error: 'code_challenge: required (PKCE)' }
    if (q.code_challenge_method !== 'S256') return { error: 'code_challenge_method: only S256' }
    if (q.nonce !== undefined && q.nonce.length > 256) return { error: 'nonce: at most 256 characters' }
    if (q.state !== undefined && q.state.length > 1024) return { error: 'state: at most 1024 characters' }
    return { ok: { clientId: q.client_id, redirectUri: q.redirect_uri, challenge: q.code_challenge, nonce: q.nonce, state: q.state } }
  }

  function page(q: Record<string, string | undefined>, message?: string): string {
    const hidden = ['client_id', 'redirect_uri', 'response_type', 'scope', 'code_challenge', 'code_challenge_method', 'nonce', 'state']
      .filter((k) => q[k] !== undefined)
      .map((k) => `<input type="hidden" name="${k}" value="${esc(q[k] as string)}">`)
      .join('')
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Sigil dev sign-in</title>
<style>body{font:16px system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#111}
label{display:block;margin:1rem 0 .25rem}input[type=email]{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1rem;font:inherit}.err{color:#a00}</style></head>
<body><main><h1>Sign in (development)</h1>
<p>This is the Sigil service's development identity provider. Any email works; nothing is sent.</p>
<form method="post" action="${DEV_OIDC_PATH}/authorize">${hidden}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required autofocus${message ? ' aria-describedby="email-error" aria-invalid="true"' : ''}>
${message ? `<p id="email-error" class="err" role="alert">${esc(message)}</p>` : ''}
<button type="submit">Continue</button></form></main></body></html>`
  }

  function pageHeaders(redirectUri?: string): Record<string, string> {
    const target = redirectUri ? ` ${new URL(redirectUri).origin}` : ''
    return {
      'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${target}; base-uri 'none'; frame-ancestors 'none'`,
      'Cache-Control': 'no-store',
      // same-origin, not no-referrer: with no-referrer the form's POST carries `Origin: null` (refused by /dev/*).
      'Referrer-Policy': 'same-origin',
    }
  }

  const oauthError = (error: string, description: string) => ({ error, error_description: description })

  /**
   * The client a token request authenticates as (RFC 6749 §2.3.1): HTTP Basic or `client_secret` in
   * the form for the confidential client, which must give its secret; the public client gives none.
   */
  function clientOf(authorization: string | undefined, formId: string | undefined, formSecret: string | undefined) {
    let id = formId
    let secret = formSecret
    const basic = /^Basic ([A-Za-z0-9+/=]+)$/.exec(authorization ?? '')
    if (basic?.[1]) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8')
      const colon = decoded.indexOf(':')
      if (colon < 0) return { error: 'Authorization: Basic must carry client_id:client_secret' }
      try {
        id = decodeURIComponent(decoded.slice(0, colon))
        secret = decodeURIComponent(decoded.slice(colon + 1))
      } catch {
        return { error: 'Authorization: Basic credentials are not URL-encoded' }
      }
      if (formId !== undefined && formId !== id) return { error: 'client_id: differs from the Basic credentials' }
    }
    if (id === DEV_OAUTH2_CLIENT_ID) {
      const given = utf8Encode(secret ?? '')
      const want = utf8Encode(DEV_OAUTH2_CLIENT_SECRET)
      if (given.length !== want.length || !timingSafeEqual(given, want)) return { error: 'client_secret: wrong secret for this client' }
      return { id }
    }
    if (id === DEV_OIDC_CLIENT_ID) return { id }
    return { error: 'client_id: unknown client' }
  }

  function mount(app: ServiceApp): void {
    const base = DEV_OIDC_PATH
    app.get(`${base}/.well-known/openid-configuration`, (c) =>
      c.json({
        issuer: issuer(),
        authorization_endpoint: `${issuer()}/authorize`,
        token_endpoint: `${issuer()}/token`,
        jwks_uri: `${issuer()}/jwks`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256'],
        code_challenge_methods_supported: ['S256'],
        userinfo_endpoint: `${issuer()}/userinfo`,
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
        scopes_supported: ['openid', 'email'],
        claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'nonce', 'email', 'email_verified'],
      }),
    )
    app.get(`${base}/jwks`, (c) => c.json({ keys: [jwk] }))
    app.get(`${base}/authorize`, (c) => {
      const q = c.req.query()
      const r = authorizeRequest(q)
      if ('error' in r) return c.html(page({}, r.error), 400, pageHeaders())
      return c.html(page(q), 200, pageHeaders(r.ok.redirectUri))
    })
    app.post(`${base}/authorize`, async (c) => {
      const form = Object.fromEntries(
        Object.entries(await c.req.parseBody()).filter((e): e is [string, string] => typeof e[1] === 'string'),
      )
      const r = authorizeRequest(form)
      if ('error' in r) return c.html(page({}, r.error), 400, pageHeaders())
      const email = (form.email ?? '').trim()
      if (!EMAIL.test(email))
        return c.html(page(form, 'Enter an email address such as ada@example.com.'), 400, pageHeaders(r.ok.redirectUri))
      sweep()
      const code = base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)))
      const { state, ...rest } = r.ok
      codes.set(code, { ...rest, email, expires: o.now() + CODE_TTL_MS })
      const to = new URL(r.ok.redirectUri)
      to.searchParams.set('code', code)
      if (state !== undefined) to.searchParams.set('state', state)
      return c.redirect(to.toString(), 302)
    })
    app.get(`${base}/userinfo`, (c) => {
      const bearer = /^Bearer ([A-Za-z0-9_-]{1,100})$/.exec(c.req.header('Authorization') ?? '')?.[1]
      const access = bearer ? accessTokens.get(bearer) : undefined
      if (!access || access.expires < o.now()) {
        c.header('WWW-Authenticate', 'Bearer error="invalid_token"')
        return c.json(oauthError('invalid_token', 'Authorization: no valid access token'), 401)
      }
      const sub = devSubject(access.email)
      const username = access.email.split('@')[0] ?? access.email
      // OIDC userinfo, Discord's /users/@me and X's /2/users/me in one document.
      return c.json(
        { sub, email: access.email, email_verified: true, id: sub, username, verified: true, data: { id: sub, username } },
        200,
        {
          'Cache-Control': 'no-store',
        },
      )
    })
    app.post(`${base}/token`, async (c) => {
      const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
      const f = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : undefined)
      const headers = { 'Cache-Control': 'no-store' }
      if (f('grant_type') !== 'authorization_code')
        return c.json(oauthError('unsupported_grant_type', 'grant_type: only authorization_code'), 400, headers)
      const code = f('code')
      const pending = code ? codes.get(code) : undefined
      if (code) codes.delete(code) // one use, right or wrong
      if (!pending || pending.expires < o.now()) return c.json(oauthError('invalid_grant', 'code: unknown, used or expired'), 400, headers)
      const client = clientOf(c.req.header('Authorization'), f('client_id'), f('client_secret'))
      if ('error' in client) return c.json(oauthError('invalid_client', client.error), 401, headers)
      if (client.id !== pending.clientId)
        return c.json(oauthError('invalid_client', 'client_id: not the client the code was issued to'), 400, headers)
      if (f('redirect_uri') !== pending.redirectUri)
        return c.json(oauthError('invalid_grant', 'redirect_uri: not the one of the authorization request'), 400, headers)
      const verifier = f('code_verifier') ?? ''
      if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || base64UrlEncode(sha256(utf8Encode(verifier))) !== pending.challenge) {
        return c.json(oauthError('invalid_grant', 'code_verifier: does not match the code_challenge'), 400, headers)
      }
      const idToken = await issueIdToken({ email: pending.email, nonce: pending.nonce, audience: pending.clientId })
      const accessToken = base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)))
      accessTokens.set(accessToken, { email: pending.email, expires: o.now() + TOKEN_TTL_S * 1000 })
      return c.json(
        {
          access_token: accessToken,
          token_type: 'Bearer',
          expires_in: TOKEN_TTL_S,
          scope: 'openid email',
          id_token: idToken,
        },
        200,
        headers,
      )
    })
  }

  return {
    issuer,
    trusted: () => ({
      issuer: issuer(),
      audiences: [DEV_OIDC_CLIENT_ID],
      keys: { kind: 'local', jwks: keySet },
      name: 'Sigil dev',
      clientId: DEV_OIDC_CLIENT_ID,
      authorizationEndpoint: `${issuer()}/authorize`,
      tokenEndpoint: `${issuer()}/token`,
      flow: 'code',
    }),
    issueIdToken,
    mount,
  }
}
