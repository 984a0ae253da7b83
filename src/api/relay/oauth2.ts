/**
 * The relay's `/v1/oauth2_authenticate` (hosted auth proxy ProxyTOAuth2AuthenticateBody /
 * ProxyTOAuth2AuthenticateResponse): an OAuth 2.0 authorization code exchanged with the parent
 * organization's credential for that provider and client id; answers the service's OIDC token.
 */
import { z } from 'zod'
import { Oauth2ClientId, Oauth2Provider } from '../oauth2.js'
import { oauth2Authenticate } from '../operations/oauth2_authenticate.js'

const p = oauth2Authenticate.parameters.shape

/** `/v1/oauth2_authenticate` request. */
export const Oauth2AuthenticateRequest = z.object({
  provider: Oauth2Provider,
  clientId: Oauth2ClientId,
  authCode: p.authCode,
  redirectUri: p.redirectUri,
  codeVerifier: p.codeVerifier,
  nonce: p.nonce,
})

/** `/v1/oauth2_authenticate` response. */
export const Oauth2AuthenticateResponse = z.object({
  oidcToken: z
    .string()
    .min(1)
    .max(16 * 1024),
})
