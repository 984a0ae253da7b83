import { normalContact } from '../../api/contact.js'
import type { Sql } from '../store/sql.js'
import { type UserRow, findUserInTreeByContact } from '../store/users.js'

/**
 * The user with this contact in `orgId` or, failing that, in one of its sub-organizations
 * (oldest first): how otp_auth, otp_login and attested stamps find their user.
 */
export async function findUserByContact(sql: Sql, orgId: string, otpType: string, contact: string): Promise<UserRow | undefined> {
  const c = normalContact(otpType, contact)
  return findUserInTreeByContact(sql, orgId, otpType === 'OTP_TYPE_SMS' ? { phone: c } : { email: c })
}
