/** oauth (hosted OpenAPI v1OauthIntent / v1OauthResult; service-interface.md oauthResult). */
import { z } from 'zod'
import { ExpirationSeconds } from '../fields.js'
import { defineSubmit } from '../operation.js'

/**
 * Exchanges a verified OIDC ID token for an encrypted credential bundle: ACTIVITY_TYPE_OAUTH. The
 * token's `nonce` must be sha256 (hex) of `targetPublicKey`.
 */
export const oauth = defineSubmit({
  name: 'oauth',
  path: '/public/v1/submit/oauth',
  type: 'ACTIVITY_TYPE_OAUTH',
  intentKey: 'oauthIntent',
  resultKey: 'oauthResult',
  parameters: z.object({
    oidcToken: z.string(),
    targetPublicKey: z.string(),
    apiKeyName: z.string().optional(),
    expirationSeconds: ExpirationSeconds.optional(),
    invalidateExisting: z.boolean().optional(),
  }),
  result: z.object({ userId: z.string(), apiKeyId: z.string(), credentialBundle: z.string() }),
})
