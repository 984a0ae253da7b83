import { listTags, tagToWire } from '../store/tags.js'
import type { QueryHandler } from './types.js'

/** list_user_tags: `{organizationId}` → `{userTags}`, oldest first. */
export const handler: QueryHandler = async ({ sql, organizationId }) => ({
  userTags: (await listTags(sql, organizationId, 'TAG_TYPE_USER')).map(tagToWire),
})
