/**
 * The OIDC ID tokens the service issues for OAuth 2.0-only providers (oauth2_authenticate): like the
 * hosted service, Sigil wraps X and Discord logins into a short-lived ID token that `oauth_login`,
 * `create_sub_organization` and `create_oauth_providers` accept. Issuer `<public URL>/oauth2`, audience
 * the credential's client id, subject `<provider>:<the provider's user id>`, `nonce` as the request gave.
 *
 * The ES256 signing key is derived (HKDF-SHA256, labelled) from the service's signer key, so every
 * instance sharing the database issues and accepts the same tokens; its public half is the issuer's
 * key set, trusted in hand (no fetch).
 */
import { p256 } from '@noble/curves/nist.js'
import { mapHashToField } from '@noble/curves/abstract/modular.js'
import { hkdf } from '@noble/hashes/hkdf.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { base64UrlEncode, utf8Encode } from '../../crypto/encoding.js'
import type { ServiceKeys } from '../keys.js'
import type { TrustedIssuer } from '../oidc/issuers.js'

/** The issuer path under the service's public URL. */
export const OAUTH2_ISSUER_PATH = '/oauth2'
/** How long an issued ID token is valid: long enough to call oauth_login, short as the hosted one. */
export const OAUTH2_ID_TOKEN_TTL_S = 300
const INFO = utf8Encode('sigil oauth2 id token signing v1')

type Jwk = { kty: 'EC'; crv: 'P-256'; x: string; y: string; kid: string; alg: 'ES256'; use: 'sig' }
/** The derived key, and its public key set: one document for the life of the keys (the verifier keeps the keys it imported per document). */
type SigningKey = { d: Uint8Array; jwk: Jwk; jwks: { keys: Jwk[] } }
const derived = new WeakMap<ServiceKeys['signer'], SigningKey>()

function signingKey(keys: Pick<ServiceKeys, 'signer'>): SigningKey {
  const cached = derived.get(keys.signer)
  if (cached) return cached
  const d = mapHashToField(hkdf(sha256, keys.signer.privateKey, undefined, INFO, 48), p256.Point.Fn.ORDER)
  const pub = p256.getPublicKey(d, false)
  const x = base64UrlEncode(pub.subarray(1, 33))
  const y = base64UrlEncode(pub.subarray(33, 65))
  // RFC 7638 thumbprint: the required members in lexicographic order.
  const kid = base64UrlEncode(sha256(utf8Encode(`{"crv":"P-256","kty":"EC","x":"${x}","y":"${y}"}`)))
  const jwk: Jwk = { kty: 'EC', crv: 'P-256', x, y, kid, alg: 'ES256', use: 'sig' }
  const key: SigningKey = { d, jwk, jwks: { keys: [jwk] } }
  derived.set(keys.signer, key)
  return key
}

/** The issuer URL for a service reached at `baseUrl`. */
export const oauth2Issuer = (baseUrl: string) => `${baseUrl.replace(/\/+$/, '')}${OAUTH2_ISSUER_PATH}`

/** The service itself as a trusted issuer: its derived key in hand, any audience (each credential's client id). */
export function oauth2TrustedIssuer(keys: Pick<ServiceKeys, 'signer'>, baseUrl: string): TrustedIssuer {
  return {
    issuer: oauth2Issuer(baseUrl),
    audiences: [],
    anyAudience: true,
    keys: { kind: 'local', jwks: signingKey(keys).jwks },
    name: 'OAuth 2.0',
    clientId: '',
    authorizationEndpoint: undefined,
    tokenEndpoint: undefined,
    flow: 'code',
  }
}

/** Signs an ID token (ES256 JWT) with the derived key. */
export function issueOauth2IdToken(
  keys: Pick<ServiceKeys, 'signer'>,
  baseUrl: string,
  c: { audience: string; subject: string; nonce: string; nowMs: number; extra: Record<string, unknown> },
): string {
  const key = signingKey(keys)
  const iat = Math.floor(c.nowMs / 1000)
  const header = { alg: 'ES256', typ: 'JWT', kid: key.jwk.kid }
  const claims = {
    ...c.extra,
    iss: oauth2Issuer(baseUrl),
    sub: c.subject,
    aud: c.audience,
    iat,
    exp: iat + OAUTH2_ID_TOKEN_TTL_S,
    nonce: c.nonce,
    jti: base64UrlEncode(crypto.getRandomValues(new Uint8Array(16))),
  }
  const input = `${base64UrlEncode(utf8Encode(JSON.stringify(header)))}.${base64UrlEncode(utf8Encode(JSON.stringify(claims)))}`
  const signature = p256.sign(utf8Encode(input), key.d, { lowS: true })
  return `${input}.${base64UrlEncode(signature)}`
}
