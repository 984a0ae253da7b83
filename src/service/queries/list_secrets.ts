import type { z } from 'zod'
import type { listSecrets, SecretMetadata } from '../../api/operations/list_secrets.js'
import { listSecrets as readPage, type SecretMetadataRow } from '../store/orgSecrets.js'
import type { QueryHandler } from './types.js'

/** A secret as the hosted v1SecretMetadata: id, name, static properties and creation time, never its value. */
function secretToWire(r: SecretMetadataRow): z.input<typeof SecretMetadata> {
  return {
    secretId: r.id,
    ...(r.name !== null ? { name: r.name } : {}),
    staticProperties: r.static_properties as Array<{ key: string; value: string }>,
    createdAtUnixMs: String(r.created_at),
  }
}

/**
 * list_secrets: the organization's secrets, newest first, paginated (cursors are secretIds),
 * without their values (the query never reads the sealed column).
 *
 * @throws INVALID_ARGUMENT when paginationOptions.after or paginationOptions.before names no secret of the organization
 */
export const handler: QueryHandler<z.output<typeof listSecrets.request>> = async ({ sql, organizationId }, req) => {
  const rows = await readPage(sql, organizationId, req.paginationOptions)
  return { secrets: rows.map(secretToWire) }
}
