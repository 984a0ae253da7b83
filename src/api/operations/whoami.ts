/** whoami (wire-formats B4 getWhoami). */
import { z } from 'zod'
import { OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'

/** Who the stamp belongs to; a parent org id works for sub-org users. */
export const whoami = defineQuery({
  name: 'whoami',
  path: '/public/v1/query/whoami',
  request: OrganizationScoped,
  response: z.object({
    organizationId: z.string(),
    organizationName: z.string(),
    userId: z.string(),
    username: z.string(),
  }),
})
