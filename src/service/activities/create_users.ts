import type { z } from 'zod'
import type { createUsers } from '../../api/operations/create_users.js'
import { createUser } from './shared/users.js'
import type { ActivityHandler } from './types.js'

/** create_users V3: users with API keys, passkeys and OAuth providers. */
export const handler: ActivityHandler<z.infer<typeof createUsers.parameters>> = async (ctx, p) => {
  const userIds: string[] = []
  for (const [i, u] of p.users.entries()) {
    userIds.push(await createUser(ctx, ctx.organizationId, u, `parameters.users[${i}]`))
  }
  return { userIds }
}
