/** oauth2_authenticate (hosted OpenAPI v1Oauth2AuthenticateIntent / v1Oauth2AuthenticateResult). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'
import { Oauth2CredentialId } from '../oauth2.js'

/**
 * Exchanges an OAuth 2.0 authorization code (with its PKCE verifier) at the credential's provider,
 * reads who signed in, and answers an OIDC ID token issued by the service for `oauth_login`:
 * ACTIVITY_TYPE_OAUTH2_AUTHENTICATE.
 */
export const oauth2Authenticate = defineSubmit({
  name: 'oauth2_authenticate',
  path: '/public/v1/submit/oauth2_authenticate',
  type: 'ACTIVITY_TYPE_OAUTH2_AUTHENTICATE',
  intentKey: 'oauth2AuthenticateIntent',
  resultKey: 'oauth2AuthenticateResult',
  parameters: z.object({
    oauth2CredentialId: Oauth2CredentialId,
    authCode: z.string().min(1, { error: 'required' }).max(2048, { error: 'at most 2048 characters' }),
    redirectUri: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048),
    // RFC 7636 §4.1: 43–128 unreserved characters.
    codeVerifier: z
      .string()
      .regex(/^[A-Za-z0-9._~-]{43,128}$/, { error: 'must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636)' }),
    nonce: z.string().min(1, { error: 'required' }).max(256, { error: 'at most 256 characters' }),
    bearerTokenTargetPublicKey: z.string().max(200).optional(),
  }),
  result: z.object({ oidcToken: z.string() }),
})
