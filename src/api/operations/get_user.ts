/** get_user (wire-formats B4 getUser). */
import { z } from 'zod'
import { OrganizationScoped, User } from '../common.js'
import { defineQuery } from '../operation.js'

/** Reads one user. */
export const getUser = defineQuery({
  name: 'get_user',
  path: '/public/v1/query/get_user',
  request: OrganizationScoped.extend({ userId: z.string().min(1, { error: 'required' }) }),
  response: z.object({ user: User }),
})
