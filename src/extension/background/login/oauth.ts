/**
 * "Continue with <provider>": sign-up and login with an OpenID Connect provider the
 * relay announces. The session key is made here first; the authorization request carries
 * `nonce = sha256(publicKey)` (the hosted service's rule), so the ID token the provider returns can
 * only log in this key. The browser runs the authorization-code flow with PKCE in its own window
 * (`identity.launchWebAuthFlow`); the code is exchanged for the ID token here; the relay finds the
 * account by the token (or creates it with the token as its OAuth provider) and `/v1/oauth_login`
 * answers with a session JWT for the key, checked against the pinned service like every login.
 * The ID token is never stored; nothing but the public key leaves the background. A sign-up here has
 * no verification token (so no client signature): the new account is opened only when it holds
 * this identity and the session key, nothing else (signupCheck.ts).
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { z } from 'zod'
import { SigilRequestError } from '../../../api/errors'
import { base64UrlDecode, base64UrlEncode, utf8Decode, utf8Encode } from '../../../crypto/encoding'
import { oidcNonce } from '../../../crypto/oidcNonce'
import type { Core } from '../core'
import { ExtensionError } from '../failures'
import type { RelayOauthProvider } from '../service/relay'
import { createSessionKey, startJwtSession } from './sessionLogin'
import type { SessionRecord } from '../session/sessionRecord'
import { startSignupSession } from './signupCheck'

/** What the popup shows: one "Continue with …" per provider. */
export type OauthProviderView = { name: string; issuer: string }

const TokenResponse = z.object({ id_token: z.string().min(10).max(16_384) }).loose()

/** The providers the relay announces that this wallet can run (both endpoints known). */
export async function oauthProviders(core: Core): Promise<OauthProviderView[]> {
  if (!core.deps.webAuthFlow) return []
  const config = await (await core.relay()).walletKitConfig()
  return (config.oauthProviders ?? []).filter(usable).map((p) => ({ name: p.name, issuer: p.issuer }))
}

/** A provider this wallet can run: an authorization endpoint, and a token endpoint for the code flow. */
function usable(p: RelayOauthProvider): p is RelayOauthProvider & { authorizationEndpoint: string } {
  return Boolean(p.authorizationEndpoint && (p.flow === 'implicit' || p.tokenEndpoint))
}

type PeekedClaims = { nonce?: unknown; email?: unknown; iss?: unknown; sub?: unknown }

/**
 * The claims of an ID token, read (not verified: the service verifies it) to check our own nonce,
 * name the account and know which identity a new account may hold.
 */
function peek(idToken: string): PeekedClaims {
  try {
    const claims: unknown = JSON.parse(utf8Decode(base64UrlDecode(idToken.split('.')[1] ?? '')))
    return typeof claims === 'object' && claims !== null ? (claims as PeekedClaims) : {}
  } catch {
    return {}
  }
}

const random = (n: number) => base64UrlEncode(crypto.getRandomValues(new Uint8Array(n)))

/** Runs the provider's login for a fresh session key; signs up on first use. */
export async function loginWithOauth(core: Core, p: { issuer: string }): Promise<SessionRecord> {
  const { webAuthFlow, authRedirectUrl } = core.deps
  if (!webAuthFlow || !authRedirectUrl)
    throw new ExtensionError('INVALID_ARGUMENT', 'This browser cannot run a sign-in window for the extension.')
  const relay = await core.relay()
  const config = await relay.walletKitConfig()
  const provider = (config.oauthProviders ?? []).find((x) => x.issuer === p.issuer)
  if (!provider || !usable(provider))
    throw new ExtensionError('INVALID_ARGUMENT', 'This sign-in provider is not offered by the service.', 'issuer')

  const key = await createSessionKey()
  const nonce = oidcNonce(key.publicKeyHex)
  const verifier = random(32)
  const state = random(16)
  const redirectUri = authRedirectUrl()
  const implicit = provider.flow === 'implicit'
  const url = new URL(provider.authorizationEndpoint)
  for (const [k, v] of Object.entries({
    client_id: provider.clientId,
    redirect_uri: redirectUri,
    scope: 'openid email',
    nonce,
    state,
    prompt: 'select_account',
    ...(implicit
      ? { response_type: 'id_token', response_mode: 'fragment' }
      : { response_type: 'code', code_challenge: base64UrlEncode(sha256(utf8Encode(verifier))), code_challenge_method: 'S256' }),
  })) {
    url.searchParams.set(k, v)
  }

  let back: URL
  try {
    back = new URL(await webAuthFlow(url.toString()))
  } catch (e) {
    // Chromium: "The user did not approve access." when the window is closed; other texts say what failed.
    const why = String((e as Error)?.message ?? '').slice(0, 120)
    throw new ExtensionError(
      'NO_PENDING_LOGIN',
      /did not approve|cancel|closed/i.test(why) || !why
        ? `Sign-in with ${provider.name} was closed before it finished.`
        : `Sign-in with ${provider.name} could not finish: ${why}`,
    )
  }
  // The code flow answers in the query; the implicit flow in the fragment.
  const answer = implicit ? new URLSearchParams(back.hash.replace(/^#/, '')) : back.searchParams
  if (answer.get('state') !== state) throw new ExtensionError('SERVICE_UNVERIFIED', 'The sign-in answer was not for this request.')
  const error = answer.get('error')
  if (error) throw new ExtensionError('REQUEST_FAILED', `${provider.name} refused the sign-in (${error.slice(0, 60)}).`)
  const idToken = implicit ? implicitToken(answer, provider.name) : await exchangeCode(core, provider, answer, redirectUri, verifier)
  const claims = peek(idToken)
  if (claims.nonce !== nonce) throw new ExtensionError('SERVICE_UNVERIFIED', `The ID token from ${provider.name} is not for this sign-in.`)
  const email = typeof claims.email === 'string' ? claims.email.slice(0, 320) : undefined

  let { organizationId } = await relay.account({ filterType: 'OIDC_TOKEN', filterValue: idToken })
  const signedUp = !organizationId
  if (!organizationId) {
    try {
      const signup = await relay.signup({
        userName: email ?? `${provider.name} user`,
        apiKeys: [],
        authenticators: [],
        oauthProviders: [{ providerName: provider.name, oidcToken: idToken }],
      })
      organizationId = signup.organizationId
    } catch (err) {
      if (err instanceof SigilRequestError && err.code === 'ALREADY_EXISTS') {
        throw new ExtensionError('REQUEST_FAILED', 'This account was just created elsewhere. Please sign in again.')
      }
      throw err
    }
  }
  const { session } = await relay.oauthLogin({ oidcToken: idToken, publicKey: key.publicKeyHex, organizationId })
  const opened = { jwt: session, key, method: 'oauth' as const, ...(email ? { username: email } : {}) }
  // No verification token, so no client signature the service could check: the extension checks
  // that the new account holds this identity and the session key, nothing else.
  if (signedUp) {
    return startSignupSession(core, {
      ...opened,
      signup: {
        organizationId,
        oauth: {
          issuer: typeof claims.iss === 'string' ? claims.iss : provider.issuer,
          subject: typeof claims.sub === 'string' ? claims.sub : '',
        },
      },
    })
  }
  return startJwtSession(core, opened)
}

function implicitToken(answer: URLSearchParams, name: string): string {
  const token = answer.get('id_token')
  if (!token || token.length > 16_384) throw new ExtensionError('REQUEST_FAILED', `${name} sent no ID token.`)
  return token
}

/** The code flow's second half: the code and the PKCE verifier for the ID token. */
async function exchangeCode(
  core: Core,
  provider: RelayOauthProvider,
  answer: URLSearchParams,
  redirectUri: string,
  verifier: string,
): Promise<string> {
  const code = answer.get('code')
  if (!code || !provider.tokenEndpoint) throw new ExtensionError('REQUEST_FAILED', `${provider.name} sent no authorization code.`)
  const doFetch = core.deps.fetch ?? ((input, init) => globalThis.fetch(input, init))
  try {
    const res = await doFetch(provider.tokenEndpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: provider.clientId,
        code_verifier: verifier,
      }),
      redirect: 'error',
    })
    const parsed = TokenResponse.safeParse(await res.json().catch(() => undefined))
    if (!res.ok || !parsed.success) throw new ExtensionError('REQUEST_FAILED', `${provider.name} did not give an ID token for the sign-in.`)
    return parsed.data.id_token
  } catch (e) {
    if (e instanceof ExtensionError) throw e
    throw new ExtensionError('NETWORK', `Could not reach ${provider.name} to finish the sign-in.`)
  }
}
