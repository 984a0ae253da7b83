/**
 * The OAuth 2.0 side of oauth2_authenticate: the authorization code (with its PKCE verifier) exchanged
 * at the provider's token endpoint with the credential's client id and secret (HTTP Basic, RFC 6749
 * §2.3.1), then the provider's who-am-I endpoint read with the access token.
 *
 * Endpoints: those `SIGIL_OAUTH2_ENDPOINTS` sets (oidc/oauth2Endpoints.ts), else X (`api.x.com/2/oauth2/token`,
 * `/2/users/me`) and Discord (`discord.com/api/oauth2/token`, `/api/users/@me`); in development
 * (`SIGIL_DEV_OIDC` on) the dev identity provider instead (`/dev/oidc/token`, `/dev/oidc/userinfo`,
 * src/devchain/oidcProvider.ts), so the flow runs offline.
 */
import type { Oauth2Provider } from '../../api/oauth2.js'
import { SigilError, fieldError } from '../../api/errors.js'
import { utf8Decode } from '../../crypto/encoding.js'
import type { Runtime } from '../runtime.js'
import type { Oauth2Endpoints } from '../oidc/oauth2Endpoints.js'

const HOSTED: Record<Oauth2Provider, Oauth2Endpoints> = {
  OAUTH2_PROVIDER_X: { token: 'https://api.x.com/2/oauth2/token', userinfo: 'https://api.x.com/2/users/me' },
  OAUTH2_PROVIDER_DISCORD: { token: 'https://discord.com/api/oauth2/token', userinfo: 'https://discord.com/api/users/@me' },
}
/** Where the dev identity provider is mounted (src/devchain/oidcProvider.ts DEV_OIDC_PATH). */
const DEV_OIDC_PATH = '/dev/oidc'
const MAX_RESPONSE_BYTES = 64 * 1024

/** The provider's name as a person reads it. */
export const PROVIDER_NAME: Record<Oauth2Provider, string> = { OAUTH2_PROVIDER_X: 'X', OAUTH2_PROVIDER_DISCORD: 'Discord' }

/** Who signed in at the provider. */
export type ProviderUser = { id: string; username: string | undefined; email: string | undefined; emailVerified: boolean }

function endpoints(rt: Runtime, provider: Oauth2Provider): Oauth2Endpoints {
  const configured = rt.config.oauth2Endpoints[provider]
  if (configured) return configured
  if (!rt.config.devOidc) return HOSTED[provider]
  const base = `${(rt.config.publicUrl ?? rt.baseUrl).replace(/\/+$/, '')}${DEV_OIDC_PATH}`
  return { token: `${base}/token`, userinfo: `${base}/userinfo` }
}

async function call(rt: Runtime, provider: Oauth2Provider, url: string, init: RequestInit): Promise<{ status: number; json: unknown }> {
  let res: Response
  try {
    res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(rt.config.oidcFetchTimeoutMs) })
  } catch {
    throw new SigilError('UNAVAILABLE', `${PROVIDER_NAME[provider]} could not be reached; retry later`)
  }
  const body = new Uint8Array(await res.arrayBuffer())
  if (body.length > MAX_RESPONSE_BYTES) throw new SigilError('UNAVAILABLE', `${PROVIDER_NAME[provider]} answered more than expected`)
  let json: unknown
  try {
    json = JSON.parse(utf8Decode(body))
  } catch {
    json = undefined
  }
  return { status: res.status, json }
}

const text = (v: unknown, max = 200) => (typeof v === 'string' ? v.slice(0, max).replace(/[^\x20-\x7e]/g, '') : '')

/**
 * Exchanges the code for an access token. A refusal names the request field it is about: the code,
 * the verifier, the redirect URI, or the credential (its client id or secret).
 */
export async function exchangeCode(
  rt: Runtime,
  c: { provider: Oauth2Provider; clientId: string; clientSecret: Uint8Array; code: string; codeVerifier: string; redirectUri: string },
): Promise<string> {
  const basic = Buffer.from(`${encodeURIComponent(c.clientId)}:${encodeURIComponent(utf8Decode(c.clientSecret))}`).toString('base64')
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: c.code,
    redirect_uri: c.redirectUri,
    code_verifier: c.codeVerifier,
    client_id: c.clientId,
  })
  const r = await call(rt, c.provider, endpoints(rt, c.provider).token, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form.toString(),
  })
  const j = (r.json ?? {}) as { access_token?: unknown; error?: unknown; error_description?: unknown }
  if (r.status === 200 && typeof j.access_token === 'string' && j.access_token) return j.access_token
  const name = PROVIDER_NAME[c.provider]
  const said = text(j.error_description) || text(j.error) || `HTTP ${r.status}`
  if (r.status >= 500) throw new SigilError('UNAVAILABLE', `${name} could not exchange the code now (${said}); retry later`)
  if (j.error === 'invalid_client' || r.status === 401) {
    throw fieldError(
      'FAILED_PRECONDITION',
      'parameters.oauth2CredentialId',
      `${name} refused this credential's client id or secret (${said})`,
    )
  }
  if (/^code_verifier/i.test(said)) throw fieldError('INVALID_ARGUMENT', 'parameters.codeVerifier', `${name} refused it: ${said}`)
  if (/^redirect_uri/i.test(said)) throw fieldError('INVALID_ARGUMENT', 'parameters.redirectUri', `${name} refused it: ${said}`)
  throw fieldError('INVALID_ARGUMENT', 'parameters.authCode', `${name} refused the authorization code: ${said}`)
}

/** Reads who signed in: X answers `{data: {id, username}}`, Discord `{id, username, email, verified}`. */
export async function whoAmI(rt: Runtime, provider: Oauth2Provider, accessToken: string): Promise<ProviderUser> {
  const r = await call(rt, provider, endpoints(rt, provider).userinfo, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
  })
  const name = PROVIDER_NAME[provider]
  if (r.status !== 200) throw new SigilError('UNAVAILABLE', `${name} did not say who signed in (HTTP ${r.status}); retry later`)
  const j = (r.json ?? {}) as Record<string, unknown>
  const u = (provider === 'OAUTH2_PROVIDER_X' ? j.data : j) as Record<string, unknown> | undefined
  const id = typeof u?.id === 'string' ? u.id : undefined
  if (!id || id.length > 128) throw new SigilError('UNAVAILABLE', `${name} answered no user id`)
  const email = typeof u?.email === 'string' && u.email.length <= 320 ? u.email.toLowerCase() : undefined
  return {
    id,
    username: typeof u?.username === 'string' ? u.username.slice(0, 128) : undefined,
    email,
    emailVerified: email !== undefined && u?.verified === true,
  }
}
