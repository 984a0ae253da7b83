/** update_oauth2_credential (hosted OpenAPI v1UpdateOauth2CredentialIntent / v1UpdateOauth2CredentialResult). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'
import { Oauth2ClientId, Oauth2CredentialId, Oauth2EncryptedSecret, Oauth2Provider } from '../oauth2.js'

/** Replaces provider, client id and secret of one credential: ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL. */
export const updateOauth2Credential = defineSubmit({
  name: 'update_oauth2_credential',
  path: '/public/v1/submit/update_oauth2_credential',
  type: 'ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL',
  intentKey: 'updateOauth2CredentialIntent',
  resultKey: 'updateOauth2CredentialResult',
  parameters: z.object({
    oauth2CredentialId: Oauth2CredentialId,
    provider: Oauth2Provider,
    clientId: Oauth2ClientId,
    encryptedClientSecret: Oauth2EncryptedSecret,
  }),
  result: z.object({ oauth2CredentialId: z.string() }),
})
