import { invalidField } from '../../api/errors.js'
import type { Sql } from '../store/sql.js'
import { type UserRow, findUserInTreeByContact } from '../store/users.js'

const EMAIL = /^[^\s@<>",]+@[^\s@<>",]+\.[^\s@<>",]+$/
const PHONE = /^\+[1-9]\d{6,14}$/

/** A contact normalised for its OTP type: lower-case email, E.164 phone (names the field when invalid). */
export function normaliseContact(otpType: string, contact: string, field: string): string {
  const c = contact.trim()
  if (otpType === 'OTP_TYPE_EMAIL') {
    if (!EMAIL.test(c)) throw invalidField(field, 'is not an email address')
    return c.toLowerCase()
  }
  if (otpType === 'OTP_TYPE_SMS') {
    if (!PHONE.test(c)) throw invalidField(field, 'must be an E.164 phone number such as +15555550123')
    return c
  }
  throw invalidField('parameters.otpType', 'must be OTP_TYPE_EMAIL or OTP_TYPE_SMS')
}

/**
 * The user with this contact in `orgId` or, failing that, in one of its sub-organizations
 * (oldest first): how otp_auth, otp_login and attested stamps find their user.
 */
export async function findUserByContact(sql: Sql, orgId: string, otpType: string, contact: string): Promise<UserRow | undefined> {
  return findUserInTreeByContact(sql, orgId, otpType === 'OTP_TYPE_SMS' ? { phone: contact } : { email: contact.toLowerCase() })
}
