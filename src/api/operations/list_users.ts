/** list_users (service-interface.md "Query operations"). */
import { z } from 'zod'
import { OrganizationScoped, User } from '../common.js'
import { defineQuery } from '../operation.js'

/** Lists the organization's users. */
export const listUsers = defineQuery({
  name: 'list_users',
  path: '/public/v1/query/list_users',
  request: OrganizationScoped,
  response: z.object({ users: z.array(User) }),
})
