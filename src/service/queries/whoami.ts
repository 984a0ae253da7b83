import type { QueryHandler } from './types.js'
import { getOrganization } from '../store/organizations.js'
import { getUserById } from '../store/users.js'

/** whoami: the caller's own organization and user (a parent organization id works, B4). */
export const handler: QueryHandler = async ({ sql, principal }) => {
  const org = await getOrganization(sql, principal.organizationId)
  const user = await getUserById(sql, principal.userId)
  return {
    organizationId: principal.organizationId,
    organizationName: org?.name ?? '',
    userId: principal.userId,
    username: user?.user_name ?? '',
  }
}
