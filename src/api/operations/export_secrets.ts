/** export_secrets (hosted OpenAPI v1ExportSecretsIntent / v1ExportSecretsResult). */
import { z } from 'zod'
import { boundedArray, StringArray } from '../fields.js'
import { MAX_SECRETS_PER_REQUEST } from '../limits.js'
import { defineSubmit } from '../operation.js'
import { SecretProperty } from './import_secrets.js'
import { TransportEncryptionSuite } from './init_import_secrets.js'

/** One secret to export and the key it goes to (hosted v1ExportSecretParams). */
export const ExportSecretParams = z.object({
  secretId: z.string({ error: 'required' }).min(1, { error: 'required' }).max(128, { error: 'at most 128 characters' }),
  targetPublicKey: z.string({ error: 'required' }).min(1, { error: 'required' }).max(132, { error: 'at most 132 characters' }),
  encryptionSuite: TransportEncryptionSuite,
  requestContext: boundedArray(SecretProperty, 16).optional(),
})

/** Exports secrets, each encrypted to its `targetPublicKey`, all or none: ACTIVITY_TYPE_EXPORT_SECRETS. */
export const exportSecrets = defineSubmit({
  name: 'export_secrets',
  path: '/public/v1/submit/export_secrets',
  type: 'ACTIVITY_TYPE_EXPORT_SECRETS',
  intentKey: 'exportSecretsIntent',
  resultKey: 'exportSecretsResult',
  parameters: z.object({
    secrets: boundedArray(ExportSecretParams, MAX_SECRETS_PER_REQUEST).min(1, { error: 'must have at least 1 item' }),
  }),
  result: z.object({ secretPayloads: StringArray }),
})
