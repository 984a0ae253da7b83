import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { oauth2Authenticate } from '../../api/operations/oauth2_authenticate.js'
import { encryptCredentialBundle } from '../../crypto/credentialBundle.js'
import { utf8Encode } from '../../crypto/encoding.js'
import { isValidP256PublicKeyHex } from '../../crypto/p256.js'
import { issueOauth2IdToken } from '../oauth2/idToken.js'
import { exchangeCode, whoAmI } from '../oauth2/provider.js'
import { getOauth2Credential, openClientSecret } from '../store/oauth2Credentials.js'
import type { ActivityHandler } from './types.js'

const SUBJECT_PREFIX = { OAUTH2_PROVIDER_X: 'x', OAUTH2_PROVIDER_DISCORD: 'discord' } as const

/**
 * oauth2_authenticate (docs "Social logins", OAuth 2.0-only providers): exchanges the authorization
 * code with the credential's provider (client id + secret, PKCE verifier, redirect URI), reads who
 * signed in, and answers an OIDC ID token the service issues (src/service/oauth2/idToken.ts):
 * audience the credential's client id, subject `x:<id>` or `discord:<id>`, `nonce` as given (sha256
 * of the key oauth_login will log in), the email only where the provider verified it. With
 * `bearerTokenTargetPublicKey` the provider's access token rides along encrypted to that key
 * (`encrypted_bearer_token` claim, a credential bundle).
 *
 * @throws NOT_FOUND when parameters.oauth2CredentialId names no OAuth 2.0 credential of the organization
 * @throws INVALID_ARGUMENT when the provider refuses parameters.authCode, parameters.codeVerifier or parameters.redirectUri, or parameters.bearerTokenTargetPublicKey is not a hex P-256 public key
 * @throws FAILED_PRECONDITION when the provider refuses the credential's client id or secret (parameters.oauth2CredentialId)
 * @throws UNAVAILABLE when the provider cannot be reached or does not say who signed in
 */
export const handler: ActivityHandler<z.infer<typeof oauth2Authenticate.parameters>> = async (ctx, p) => {
  if (p.bearerTokenTargetPublicKey !== undefined && !isValidP256PublicKeyHex(p.bearerTokenTargetPublicKey)) {
    throw fieldError('INVALID_ARGUMENT', 'parameters.bearerTokenTargetPublicKey', 'must be a hex P-256 public key (33 or 65 bytes)')
  }
  const row = await getOauth2Credential(ctx.tx, ctx.organizationId, p.oauth2CredentialId)
  if (!row) throw fieldError('NOT_FOUND', 'parameters.oauth2CredentialId', 'no such OAuth 2.0 credential in the organization')
  const clientSecret = openClientSecret(ctx.rt.secrets, row)
  let accessToken: string
  try {
    accessToken = await exchangeCode(ctx.rt, {
      provider: row.provider,
      clientId: row.client_id,
      clientSecret,
      code: p.authCode,
      codeVerifier: p.codeVerifier,
      redirectUri: p.redirectUri,
    })
  } finally {
    clientSecret.fill(0)
  }
  const user = await whoAmI(ctx.rt, row.provider, accessToken)
  const extra: Record<string, unknown> = {}
  if (user.username) extra.preferred_username = user.username
  if (user.email && user.emailVerified) Object.assign(extra, { email: user.email, email_verified: true })
  if (p.bearerTokenTargetPublicKey) {
    extra.encrypted_bearer_token = await encryptCredentialBundle({
      plaintext: utf8Encode(accessToken),
      targetPublicKeyHex: p.bearerTokenTargetPublicKey,
    })
  }
  const oidcToken = issueOauth2IdToken(ctx.rt.keys, ctx.rt.config.publicUrl ?? ctx.rt.baseUrl, {
    audience: row.client_id,
    subject: `${SUBJECT_PREFIX[row.provider]}:${user.id}`,
    nonce: p.nonce,
    nowMs: ctx.now,
    extra,
  })
  return { oidcToken }
}
