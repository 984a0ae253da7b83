/**
 * What the OAuth 2.0 credential operations share (hosted OpenAPI v1Oauth2Provider, v1Oauth2Credential):
 * the providers and the credential record. The client secret arrives encrypted to the service
 * (`encryptedClientSecret`, @turnkey/crypto `encryptOauth2ClientSecret` to `GET /healthz`
 * `onRampEncryptionPublicKey`); it is sealed at rest and never returned in the clear.
 */
import { z } from 'zod'
import { Timestamp } from './common.js'
import { MAX_OAUTH2_CLIENT_ID, MAX_OAUTH2_ENCRYPTED_SECRET } from './limits.js'

/** The OAuth 2.0-only providers the hosted service wraps into OIDC (X and Discord). */
export const OAUTH2_PROVIDERS = ['OAUTH2_PROVIDER_X', 'OAUTH2_PROVIDER_DISCORD'] as const
export const Oauth2Provider = z.enum(OAUTH2_PROVIDERS, { error: `must be one of ${OAUTH2_PROVIDERS.join(', ')}` })
export type Oauth2Provider = z.infer<typeof Oauth2Provider>

export const Oauth2ClientId = z
  .string()
  .min(1, { error: 'required' })
  .max(MAX_OAUTH2_CLIENT_ID, { error: `at most ${MAX_OAUTH2_CLIENT_ID} characters` })
export const Oauth2EncryptedSecret = z
  .string()
  .min(1, { error: 'required' })
  .max(MAX_OAUTH2_ENCRYPTED_SECRET, { error: `at most ${MAX_OAUTH2_ENCRYPTED_SECRET} characters` })
export const Oauth2CredentialId = z.string().min(1, { error: 'required' }).max(100)

/**
 * One credential as get_ and list_oauth2_credentials answer it. `encryptedClientSecret` is the
 * ciphertext the client sent (readable only with the service's key), as the hosted service answers it.
 */
export const Oauth2Credential = z.object({
  oauth2CredentialId: z.string(),
  organizationId: z.string(),
  provider: Oauth2Provider,
  clientId: z.string(),
  encryptedClientSecret: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
export type Oauth2Credential = z.infer<typeof Oauth2Credential>
