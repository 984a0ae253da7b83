import { listTags, tagToWire } from '../store/tags.js'
import type { QueryHandler } from './types.js'

/** list_private_key_tags: `{organizationId}` → `{privateKeyTags}`, oldest first. */
export const handler: QueryHandler = async ({ sql, organizationId }) => ({
  privateKeyTags: (await listTags(sql, organizationId, 'TAG_TYPE_PRIVATE_KEY')).map(tagToWire),
})
