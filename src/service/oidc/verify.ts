/**
 * OIDC ID-token verification with `jose`: the signature against the issuer's published
 * keys, `iss` (a trusted issuer, exactly), `aud` (one of the audiences configured for it), `exp` /
 * `nbf` / `iat` with 60 s of clock skew, and, where a client key is at stake, the hosted service's
 * nonce rule: `nonce = hex(sha256(publicKeyHex))` (src/crypto/oidcNonce.ts).
 *
 * Keys come from the issuer's JWKS (its `jwksUri`, OIDC discovery, or a local file), fetched with a
 * timeout and cached: kept for 10 minutes, fetched again sooner only for a `kid` the cached set lacks
 * (at most every 30 s per issuer), and one fetch at a time per issuer. A token is refused with
 * TOKEN_INVALID naming the field; keys that cannot be fetched give UNAVAILABLE (nothing applied,
 * retry later).
 */
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, errors, type JWTPayload, jwtVerify } from 'jose'
import { SigilError, fieldError } from '../../api/errors.js'
import { JwksDocument, normaliseIssuer, type TrustedIssuer } from './issuers.js'

/** Asymmetric algorithms only: `none` and shared-secret (HS*) tokens are refused. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']
const CLOCK_SKEW_SECONDS = 60
const MAX_TOKEN_LENGTH = 16 * 1024
const MAX_JWKS_BYTES = 256 * 1024

/** What a verified ID token says. `aud` is the audience that matched the issuer's configuration. */
export type VerifiedIdToken = {
  iss: string
  sub: string
  aud: string
  email: string | undefined
  emailVerified: boolean
  nonce: string | undefined
  /** The token's own id (`jti`), when it has one. */
  jti: string | undefined
}

export type OidcVerifier = {
  /** Verifies `token`; throws TOKEN_INVALID naming `field` (or UNAVAILABLE when keys cannot be had). */
  verify(token: string, opts: { field: string; nonce?: string | string[] }): Promise<VerifiedIdToken>
  /** Fetches (outside any transaction) the keys the OIDC tokens inside `params` will need. Never throws. */
  prefetch(params: unknown): Promise<void>
  /** The trusted issuers now (configured ones, then the dev identity provider in development). */
  issuers(): TrustedIssuer[]
}

export type OidcVerifierOptions = {
  issuers: () => TrustedIssuer[]
  now: () => number
  fetch?: typeof globalThis.fetch
  timeoutMs?: number
  maxAgeMs?: number
  minRefetchMs?: number
}

type CacheEntry = {
  jwks: JwksDocument
  fetchedAt: number
  inFlight?: Promise<JwksDocument> | undefined
  /** The last failed fetch: not tried again for a few seconds (the activity's own check then fails at once). */
  failed?: { at: number; message: string } | undefined
}
/** How long a failed key fetch is remembered before the issuer is tried again. */
const FAILURE_MEMORY_MS = 5000

function unavailable(field: string, t: TrustedIssuer, why: string): SigilError {
  return new SigilError('UNAVAILABLE', `${field}: the signing keys of ${t.issuer} could not be fetched (${why.slice(0, 200)}); retry later`)
}

function invalid(field: string, description: string): SigilError {
  return fieldError('TOKEN_INVALID', field, description)
}

/** Creates a verifier with its own key cache. */
export function createOidcVerifier(o: OidcVerifierOptions): OidcVerifier {
  const doFetch = o.fetch ?? globalThis.fetch
  const timeoutMs = o.timeoutMs ?? 5000
  const maxAgeMs = o.maxAgeMs ?? 10 * 60_000
  const minRefetchMs = o.minRefetchMs ?? 30_000
  const cache = new Map<string, CacheEntry>()
  // One resolver per key set document: jose keeps the keys it imported, so each key is imported once.
  const resolvers = new WeakMap<JwksDocument, ReturnType<typeof createLocalJWKSet>>()
  const keyResolver = (jwks: JwksDocument) => {
    let r = resolvers.get(jwks)
    if (!r) {
      r = createLocalJWKSet(jwks as Parameters<typeof createLocalJWKSet>[0])
      resolvers.set(jwks, r)
    }
    return r
  }

  async function getJson(url: string): Promise<unknown> {
    const res = await doFetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' }, redirect: 'error' })
    if (!res.ok) throw new Error(`${url} answered ${res.status}`)
    const text = await res.text()
    if (text.length > MAX_JWKS_BYTES) throw new Error(`${url} answered more than ${MAX_JWKS_BYTES} bytes`)
    return JSON.parse(text)
  }

  async function fetchKeys(t: TrustedIssuer): Promise<JwksDocument> {
    if (t.keys.kind === 'local') return t.keys.jwks
    let uri = t.keys.kind === 'uri' ? t.keys.uri : undefined
    if (!uri) {
      const doc = (await getJson(`${t.issuer}/.well-known/openid-configuration`)) as { issuer?: unknown; jwks_uri?: unknown }
      if (typeof doc.issuer !== 'string' || normaliseIssuer(doc.issuer) !== t.issuer) {
        throw new Error(`the discovery document of ${t.issuer} names another issuer`)
      }
      if (typeof doc.jwks_uri !== 'string' || !/^https?:\/\//.test(doc.jwks_uri))
        throw new Error(`the discovery document of ${t.issuer} has no jwks_uri`)
      uri = doc.jwks_uri
    }
    const parsed = JwksDocument.safeParse(await getJson(uri))
    if (!parsed.success) throw new Error(`${uri} is not a JWKS document`)
    return parsed.data
  }

  /** The issuer's key set, fetched when missing, stale, or lacking `kid` (rate-limited). */
  async function keysFor(t: TrustedIssuer, kid: string | undefined, field: string): Promise<JwksDocument> {
    if (t.keys.kind === 'local') return t.keys.jwks
    const now = o.now()
    const entry = cache.get(t.issuer)
    const hasKid = (jwks: JwksDocument) => kid === undefined || jwks.keys.some((k) => k.kid === kid)
    if (entry && now - entry.fetchedAt < maxAgeMs && (hasKid(entry.jwks) || now - entry.fetchedAt < minRefetchMs)) return entry.jwks
    if (entry?.inFlight) return entry.inFlight
    if (entry?.failed && now - entry.failed.at < FAILURE_MEMORY_MS && !(entry.fetchedAt > 0 && hasKid(entry.jwks))) {
      throw unavailable(field, t, entry.failed.message)
    }
    const inFlight = fetchKeys(t)
    const slot: CacheEntry = entry ?? { jwks: { keys: [] }, fetchedAt: 0 }
    slot.inFlight = inFlight
    cache.set(t.issuer, slot)
    try {
      const jwks = await inFlight
      cache.set(t.issuer, { jwks, fetchedAt: o.now() })
      return jwks
    } catch (e) {
      slot.inFlight = undefined
      slot.failed = { at: o.now(), message: (e as Error).message }
      // Keys fetched before still verify tokens they signed while the issuer is unreachable.
      if (entry && entry.fetchedAt > 0 && hasKid(entry.jwks)) return entry.jwks
      throw unavailable(field, t, (e as Error).message)
    }
  }

  function findIssuer(iss: unknown): TrustedIssuer | undefined {
    if (typeof iss !== 'string') return undefined
    const want = normaliseIssuer(iss)
    return o.issuers().find((t) => t.issuer === want)
  }

  function decode(token: string, field: string): { payload: JWTPayload; kid: string | undefined; alg: string | undefined } {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || token.split('.').length !== 3) {
      throw invalid(field, 'is not a signed JWT (header.payload.signature)')
    }
    try {
      const header = decodeProtectedHeader(token)
      return { payload: decodeJwt(token), kid: typeof header.kid === 'string' ? header.kid : undefined, alg: header.alg }
    } catch {
      throw invalid(field, 'is not a signed JWT (header.payload.signature)')
    }
  }

  async function verify(token: string, opts: { field: string; nonce?: string | string[] }): Promise<VerifiedIdToken> {
    const { field } = opts
    const { payload, kid, alg } = decode(token, field)
    if (!alg || !ALGORITHMS.includes(alg))
      throw invalid(field, `is signed with ${alg ?? 'no algorithm'}; accepted: ${ALGORITHMS.join(', ')}`)
    const trusted = findIssuer(payload.iss)
    if (!trusted) {
      throw invalid(
        field,
        `issuer ${JSON.stringify(String(payload.iss ?? '')).slice(0, 120)} is not trusted by this service (SIGIL_OIDC_ISSUERS)`,
      )
    }
    const jwks = await keysFor(trusted, kid, field)
    let verified: JWTPayload
    try {
      const r = await jwtVerify(token, keyResolver(jwks), {
        algorithms: ALGORITHMS,
        ...(trusted.anyAudience ? {} : { audience: trusted.audiences }),
        clockTolerance: CLOCK_SKEW_SECONDS,
        currentDate: new Date(o.now()),
        requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat'],
      })
      verified = r.payload
    } catch (e) {
      throw invalid(field, describeJoseError(e, trusted))
    }
    const nowSec = o.now() / 1000
    if (typeof verified.iat !== 'number' || verified.iat > nowSec + CLOCK_SKEW_SECONDS)
      throw invalid(field, 'is issued in the future (iat)')
    if (typeof verified.sub !== 'string' || !verified.sub) throw invalid(field, 'has no subject (sub)')
    const auds = Array.isArray(verified.aud) ? verified.aud : [verified.aud]
    const aud = auds.find((a): a is string => typeof a === 'string' && (trusted.anyAudience || trusted.audiences.includes(a))) as string
    const nonce = typeof verified.nonce === 'string' ? verified.nonce : undefined
    const accepted = opts.nonce === undefined ? undefined : ([] as string[]).concat(opts.nonce)
    if (accepted && (nonce === undefined || !accepted.includes(nonce))) {
      throw invalid(field, 'nonce must be sha256 (hex) of the public key it logs in: this token was issued for another key')
    }
    return {
      iss: trusted.issuer,
      sub: verified.sub,
      aud,
      email: typeof verified.email === 'string' ? verified.email : undefined,
      emailVerified: verified.email_verified === true || verified.email_verified === 'true',
      nonce,
      jti: typeof verified.jti === 'string' && verified.jti ? verified.jti : undefined,
    }
  }

  async function prefetch(params: unknown): Promise<void> {
    const tokens: string[] = []
    collectTokens(params, tokens, 0)
    await Promise.all(
      tokens.slice(0, 8).map(async (token) => {
        try {
          const { payload, kid } = decode(token, 'oidcToken')
          const t = findIssuer(payload.iss)
          if (t) await keysFor(t, kid, 'oidcToken')
        } catch {
          // The handler verifies and reports; this only warms the cache.
        }
      }),
    )
  }

  return { verify, prefetch, issuers: o.issuers }
}

/** `oidcToken` strings anywhere in `v` (parameters of an activity), a few levels deep. */
function collectTokens(v: unknown, out: string[], depth: number): void {
  if (depth > 4 || v === null || typeof v !== 'object') return
  if (Array.isArray(v)) {
    for (const x of v.slice(0, 100)) collectTokens(x, out, depth + 1)
    return
  }
  for (const [k, x] of Object.entries(v)) {
    if (k === 'oidcToken' && typeof x === 'string') out.push(x)
    else collectTokens(x, out, depth + 1)
  }
}

function describeJoseError(e: unknown, t: TrustedIssuer): string {
  if (e instanceof errors.JWTExpired) return 'has expired (exp)'
  if (e instanceof errors.JWTClaimValidationFailed) {
    if (e.claim === 'aud') return `audience is not one this service accepts for ${t.issuer}`
    if (e.claim === 'nbf') return 'is not valid yet (nbf)'
    return `claim ${e.claim} is invalid (${e.reason})`
  }
  if (e instanceof errors.JWKSNoMatchingKey) return `no key of ${t.issuer} matches its key id (kid)`
  if (e instanceof errors.JWKSMultipleMatchingKeys) return `several keys of ${t.issuer} match it; it needs a key id (kid)`
  if (e instanceof errors.JWSSignatureVerificationFailed) return 'signature does not verify with the issuer’s keys'
  if (e instanceof errors.JOSEAlgNotAllowed) return 'is signed with an algorithm this service does not accept'
  return 'is not a valid ID token'
}
