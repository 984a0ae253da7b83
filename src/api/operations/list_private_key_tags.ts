/** list_private_key_tags (hosted OpenAPI v1ListPrivateKeyTagsRequest / v1ListPrivateKeyTagsResponse). */
import { z } from 'zod'
import { OrganizationScoped, Tag } from '../common.js'
import { defineQuery } from '../operation.js'

/** Lists the organization's private-key tags, oldest first. */
export const listPrivateKeyTags = defineQuery({
  name: 'list_private_key_tags',
  path: '/public/v1/query/list_private_key_tags',
  request: OrganizationScoped,
  response: z.object({ privateKeyTags: z.array(Tag) }),
})
