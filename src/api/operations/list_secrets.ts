/** list_secrets (hosted OpenAPI v1ListSecretsRequest / v1ListSecretsResponse). */
import { z } from 'zod'
import { PaginationOptions } from '../common.js'
import { defineQuery } from '../operation.js'

/** What a list shows of a secret (hosted v1SecretMetadata): never its value. */
export const SecretMetadata = z.object({
  secretId: z.string(),
  name: z.string().optional(),
  staticProperties: z.array(z.object({ key: z.string(), value: z.string() })),
  createdAtUnixMs: z.string(),
})

/** The organization's secrets, newest first, paginated (cursors are secretIds). */
export const listSecrets = defineQuery({
  name: 'list_secrets',
  path: '/public/v1/query/list_secrets',
  request: z.object({
    organizationId: z.string().min(1, { error: 'required' }),
    paginationOptions: PaginationOptions.optional(),
  }),
  response: z.object({ secrets: z.array(SecretMetadata) }),
})
