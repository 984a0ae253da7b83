/** create_oauth2_credential (hosted OpenAPI v1CreateOauth2CredentialIntent / v1CreateOauth2CredentialResult). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'
import { Oauth2ClientId, Oauth2EncryptedSecret, Oauth2Provider } from '../oauth2.js'

/** Stores an OAuth 2.0 provider's client id and (encrypted) secret: ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL. */
export const createOauth2Credential = defineSubmit({
  name: 'create_oauth2_credential',
  path: '/public/v1/submit/create_oauth2_credential',
  type: 'ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL',
  intentKey: 'createOauth2CredentialIntent',
  resultKey: 'createOauth2CredentialResult',
  parameters: z.object({ provider: Oauth2Provider, clientId: Oauth2ClientId, encryptedClientSecret: Oauth2EncryptedSecret }),
  result: z.object({ oauth2CredentialId: z.string() }),
})
