/** delete_secrets (hosted OpenAPI v1DeleteSecretsIntent / v1DeleteSecretsResult). */
import { z } from 'zod'
import { boundedArray, StringArray } from '../fields.js'
import { MAX_SECRETS_PER_REQUEST } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Deletes 1..32 distinct secrets of the organization, all or none: ACTIVITY_TYPE_DELETE_SECRETS. */
export const deleteSecrets = defineSubmit({
  name: 'delete_secrets',
  path: '/public/v1/submit/delete_secrets',
  type: 'ACTIVITY_TYPE_DELETE_SECRETS',
  intentKey: 'deleteSecretsIntent',
  resultKey: 'deleteSecretsResult',
  parameters: z.object({
    secretIds: boundedArray(z.uuid({ error: 'must be a UUID' }), MAX_SECRETS_PER_REQUEST)
      .min(1, { error: 'must have at least 1 item' })
      .refine((ids) => new Set(ids).size === ids.length, { error: 'must not repeat a secret' }),
  }),
  result: z.object({ secretIds: StringArray }),
})
