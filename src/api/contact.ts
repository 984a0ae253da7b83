/**
 * The one form of an OTP contact (an email address or a phone number), shared by the relay, the
 * service and the extension: the form OTPs are sent to, verification tokens carry, accounts are
 * looked up by and OTPs are rate-limited by.
 */
import { invalidField } from './errors.js'

const EMAIL = /^[^\s@<>",]+@[^\s@<>",]+\.[^\s@<>",]+$/
const PHONE = /^\+[1-9]\d{6,14}$/

/** A contact in its one form: trimmed, an email address (`OTP_TYPE_EMAIL`) also lower case. Checks nothing. */
export function normalContact(otpType: string, contact: string): string {
  return otpType === 'OTP_TYPE_EMAIL' ? contact.trim().toLowerCase() : contact.trim()
}

/**
 * A contact checked and in its one form ({@link normalContact}): an email address, or an E.164
 * phone number for `OTP_TYPE_SMS`; names `field` when it is neither.
 */
export function normaliseContact(otpType: string, contact: string, field: string): string {
  if (otpType === 'OTP_TYPE_EMAIL') {
    if (!EMAIL.test(contact.trim())) throw invalidField(field, 'is not an email address')
    return normalContact(otpType, contact)
  }
  if (otpType === 'OTP_TYPE_SMS') {
    if (!PHONE.test(contact.trim())) throw invalidField(field, 'must be an E.164 phone number such as +15555550123')
    return normalContact(otpType, contact)
  }
  throw invalidField('parameters.otpType', 'must be OTP_TYPE_EMAIL or OTP_TYPE_SMS')
}
