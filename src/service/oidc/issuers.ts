/**
 * The OIDC issuers the service trusts, from `SIGIL_OIDC_ISSUERS`: a JSON array, each entry
 *
 *   { "issuer": "https://accounts.google.com",              // the tokens' `iss`, exactly
 *     "audiences": ["1234.apps.googleusercontent.com"],     // accepted `aud` values (the app's client ids)
 *     "jwksUri": "https://www.googleapis.com/oauth2/v3/certs", // or "jwksFile": "/etc/sigil/idp.jwks.json";
 *                                                           // neither: found by OIDC discovery
 *     "name": "Google",                                     // shown on "Continue with Google"
 *     "clientId": "1234.apps.googleusercontent.com",         // the extension's client id (default: audiences[0])
 *     "authorizationEndpoint": "…", "tokenEndpoint": "…",   // for the extension
 *     "flow": "code" }                                      // or "implicit" (response_type=id_token, e.g. Google
 *                                                           // for extensions, whose clients have no secret-less code flow)
 *
 * In development the service's own identity provider (`/dev/oidc`) is trusted beside these.
 */
import { readFileSync } from 'node:fs'
import { z } from 'zod'

const Jwk = z.looseObject({ kty: z.string(), kid: z.string().optional() })
/** A JSON Web Key Set document. */
export const JwksDocument = z.looseObject({ keys: z.array(Jwk).max(100) })
export type JwksDocument = z.infer<typeof JwksDocument>

const HttpUrl = z.url({ protocol: /^https?$/ })

const IssuerEntry = z
  .strictObject({
    issuer: HttpUrl,
    audiences: z.array(z.string().min(1)).min(1, { error: 'needs at least one audience (the client id tokens are issued to)' }),
    jwksUri: HttpUrl.optional(),
    jwksFile: z.string().min(1).optional(),
    name: z.string().min(1).max(40).optional(),
    clientId: z.string().min(1).optional(),
    authorizationEndpoint: HttpUrl.optional(),
    tokenEndpoint: HttpUrl.optional(),
    /** How a client gets the ID token: `code` (authorization code + PKCE, the default) or `implicit` (`response_type=id_token`). */
    flow: z.enum(['code', 'implicit']).optional(),
  })
  .refine((e) => !(e.jwksUri && e.jwksFile), { error: 'give jwksUri or jwksFile, not both' })

/** One trusted issuer, resolved: where its keys come from and which audiences it may name. */
export type TrustedIssuer = {
  issuer: string
  audiences: string[]
  /**
   * Any `aud` is accepted (the service's own OAuth 2.0 issuer, whose tokens name each credential's
   * client id); such an issuer is not offered as a sign-in provider.
   */
  anyAudience?: true
  /** Where the signing keys come from: a JWKS URL, a key set in hand, or OIDC discovery. */
  keys: { kind: 'uri'; uri: string } | { kind: 'local'; jwks: JwksDocument } | { kind: 'discovery' }
  name: string
  clientId: string
  authorizationEndpoint: string | undefined
  tokenEndpoint: string | undefined
  flow: 'code' | 'implicit'
}

/** An issuer URL as compared with a token's `iss`: without a trailing slash. */
export function normaliseIssuer(issuer: string): string {
  return issuer.replace(/\/+$/, '')
}

/**
 * Parses `SIGIL_OIDC_ISSUERS` (empty or unset: none). Throws a message naming the entry and field;
 * a `jwksFile` is read here, once.
 */
export function parseOidcIssuers(value: string | undefined): TrustedIssuer[] {
  if (!value?.trim()) return []
  let json: unknown
  try {
    json = JSON.parse(value)
  } catch {
    throw new Error('SIGIL_OIDC_ISSUERS: must be a JSON array of {issuer, audiences, jwksUri | jwksFile, …}')
  }
  const parsed = z.array(IssuerEntry).max(50).safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new Error(`SIGIL_OIDC_ISSUERS: [${issue?.path.join('.')}]: ${issue?.message}`)
  }
  const seen = new Set<string>()
  return parsed.data.map((e, i) => {
    const issuer = normaliseIssuer(e.issuer)
    if (seen.has(issuer)) throw new Error(`SIGIL_OIDC_ISSUERS: [${i}.issuer]: ${issuer} is listed twice`)
    seen.add(issuer)
    let keys: TrustedIssuer['keys'] = { kind: 'discovery' }
    if (e.jwksUri) keys = { kind: 'uri', uri: e.jwksUri }
    if (e.jwksFile) {
      let doc: unknown
      try {
        doc = JSON.parse(readFileSync(e.jwksFile, 'utf8'))
      } catch (err) {
        throw new Error(`SIGIL_OIDC_ISSUERS: [${i}.jwksFile]: cannot read ${e.jwksFile} as JSON (${(err as Error).message})`)
      }
      const jwks = JwksDocument.safeParse(doc)
      if (!jwks.success) throw new Error(`SIGIL_OIDC_ISSUERS: [${i}.jwksFile]: ${e.jwksFile} is not a JWKS document ({keys: [...]})`)
      keys = { kind: 'local', jwks: jwks.data }
    }
    return {
      issuer,
      audiences: e.audiences,
      keys,
      name: e.name ?? new URL(issuer).hostname,
      clientId: e.clientId ?? (e.audiences[0] as string),
      authorizationEndpoint: e.authorizationEndpoint,
      tokenEndpoint: e.tokenEndpoint,
      flow: e.flow ?? 'code',
    }
  })
}
