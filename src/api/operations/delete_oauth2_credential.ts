/** delete_oauth2_credential (hosted OpenAPI v1DeleteOauth2CredentialIntent / v1DeleteOauth2CredentialResult). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'
import { Oauth2CredentialId } from '../oauth2.js'

/** Removes one credential and its sealed secret: ACTIVITY_TYPE_DELETE_OAUTH2_CREDENTIAL. */
export const deleteOauth2Credential = defineSubmit({
  name: 'delete_oauth2_credential',
  path: '/public/v1/submit/delete_oauth2_credential',
  type: 'ACTIVITY_TYPE_DELETE_OAUTH2_CREDENTIAL',
  intentKey: 'deleteOauth2CredentialIntent',
  resultKey: 'deleteOauth2CredentialResult',
  parameters: z.object({ oauth2CredentialId: Oauth2CredentialId }),
  result: z.object({ oauth2CredentialId: z.string() }),
})
