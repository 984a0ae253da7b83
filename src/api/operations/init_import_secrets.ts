/** init_import_secrets (hosted OpenAPI v1InitImportSecretsIntent / v1InitImportSecretsResult). */
import { z } from 'zod'
import { MAX_SECRETS_PER_REQUEST } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** The transport suite of secrets (hosted v1TransportEncryptionSuite): HPKE to a signed single-use P-256 target, as key import and export are. */
export const TransportEncryptionSuite = z.enum(['TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1'], {
  error: 'must be TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1',
})

/** Mints `numSecrets` single-use ingress target keys, each in a signed target bundle: ACTIVITY_TYPE_INIT_IMPORT_SECRETS. */
export const initImportSecrets = defineSubmit({
  name: 'init_import_secrets',
  path: '/public/v1/submit/init_import_secrets',
  type: 'ACTIVITY_TYPE_INIT_IMPORT_SECRETS',
  intentKey: 'initImportSecretsIntent',
  resultKey: 'initImportSecretsResult',
  parameters: z.object({
    encryptionSuite: TransportEncryptionSuite,
    numSecrets: z
      .number({ error: 'must be a number' })
      .int({ error: 'must be an integer' })
      .min(1, { error: `must be between 1 and ${MAX_SECRETS_PER_REQUEST}` })
      .max(MAX_SECRETS_PER_REQUEST, { error: `must be between 1 and ${MAX_SECRETS_PER_REQUEST}` }),
  }),
  result: z.object({ enclaveTargetMessages: z.array(z.string()) }),
})
