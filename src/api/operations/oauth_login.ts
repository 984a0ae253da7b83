/** oauth_login (hosted OpenAPI v1OauthLoginIntent / v1OauthLoginResult; service-interface.md oauthLoginResult). */
import { z } from 'zod'
import { ExpirationSeconds } from '../fields.js'
import { defineSubmit } from '../operation.js'

/**
 * Logs in with a verified OIDC ID token → a session JWT for `publicKey`: ACTIVITY_TYPE_OAUTH_LOGIN.
 * The token's `nonce` must be sha256 (hex) of `publicKey`.
 */
export const oauthLogin = defineSubmit({
  name: 'oauth_login',
  path: '/public/v1/submit/oauth_login',
  type: 'ACTIVITY_TYPE_OAUTH_LOGIN',
  intentKey: 'oauthLoginIntent',
  resultKey: 'oauthLoginResult',
  parameters: z.object({
    oidcToken: z.string(),
    publicKey: z.string(),
    expirationSeconds: ExpirationSeconds.optional(),
    invalidateExisting: z.boolean().optional(),
    sessionProfileId: z.string().optional(),
  }),
  result: z.object({ session: z.string() }),
})
