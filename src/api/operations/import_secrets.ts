/** import_secrets (hosted OpenAPI v1ImportSecretsIntent / v1ImportSecretsResult). */
import { z } from 'zod'
import { boundedArray, StringArray } from '../fields.js'
import {
  MAX_SECRET_NAME,
  MAX_SECRET_PAYLOAD,
  MAX_SECRET_PROPERTY_KEY,
  MAX_SECRET_PROPERTY_VALUE,
  MAX_SECRET_STATIC_PROPERTIES,
  MAX_SECRETS_PER_REQUEST,
} from '../limits.js'
import { defineSubmit } from '../operation.js'
import { TransportEncryptionSuite } from './init_import_secrets.js'

/** One static property (hosted v1KeyValue): policy-visible, bound to the secret for good. */
export const SecretProperty = z.object({
  key: z
    .string({ error: 'required' })
    .min(1, { error: 'required' })
    .max(MAX_SECRET_PROPERTY_KEY, {
      error: `at most ${MAX_SECRET_PROPERTY_KEY} characters`,
    }),
  value: z
    .string({ error: 'must be a string' })
    .max(MAX_SECRET_PROPERTY_VALUE, { error: `at most ${MAX_SECRET_PROPERTY_VALUE} characters` })
    .optional(),
})

/** One secret to import (hosted v1ImportSecretParams). */
export const ImportSecretParams = z.object({
  name: z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(MAX_SECRET_NAME, { error: `at most ${MAX_SECRET_NAME} characters` })
    .optional(),
  secretPayload: z
    .string({ error: 'required' })
    .min(1, { error: 'required' })
    .max(MAX_SECRET_PAYLOAD, { error: `at most ${MAX_SECRET_PAYLOAD} characters` }),
  targetPublicKey: z.string({ error: 'required' }).min(1, { error: 'required' }).max(132, { error: 'at most 132 characters' }),
  encryptionSuite: TransportEncryptionSuite,
  staticProperties: boundedArray(SecretProperty, MAX_SECRET_STATIC_PROPERTIES).optional(),
})

/** Imports secrets encrypted to ingress keys from init_import_secrets: ACTIVITY_TYPE_IMPORT_SECRETS. */
export const importSecrets = defineSubmit({
  name: 'import_secrets',
  path: '/public/v1/submit/import_secrets',
  type: 'ACTIVITY_TYPE_IMPORT_SECRETS',
  intentKey: 'importSecretsIntent',
  resultKey: 'importSecretsResult',
  parameters: z.object({
    secrets: boundedArray(ImportSecretParams, MAX_SECRETS_PER_REQUEST).min(1, { error: 'must have at least 1 item' }),
  }),
  result: z.object({ secretIds: StringArray }),
})
