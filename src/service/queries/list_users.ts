import type { QueryHandler } from './types.js'
import { listUsers, userToWire } from '../store/users.js'

/** list_users: every user of the organization with its credentials. */
export const handler: QueryHandler = async ({ sql, organizationId }) => {
  const users = []
  for (const u of await listUsers(sql, organizationId)) users.push(await userToWire(sql, u))
  return { users }
}
