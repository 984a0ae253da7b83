import { fieldError } from '../../../api/errors.js'
import type { Sql } from '../../store/sql.js'
import { getUser, type UserRow } from '../../store/users.js'

/** The user, which must belong to the organization; a 404 naming the field otherwise. */
export async function requireUser(sql: Sql, orgId: string, userId: string, field: string): Promise<UserRow> {
  const user = await getUser(sql, orgId, userId)
  if (!user) {
    throw fieldError('NOT_FOUND', field, `user ${userId} not found in the organization`)
  }
  return user
}
