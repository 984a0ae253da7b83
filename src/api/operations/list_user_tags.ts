/** list_user_tags (hosted OpenAPI v1ListUserTagsRequest / v1ListUserTagsResponse). */
import { z } from 'zod'
import { OrganizationScoped, Tag } from '../common.js'
import { defineQuery } from '../operation.js'

/** Lists the organization's user tags, oldest first. */
export const listUserTags = defineQuery({
  name: 'list_user_tags',
  path: '/public/v1/query/list_user_tags',
  request: OrganizationScoped,
  response: z.object({ userTags: z.array(Tag) }),
})
