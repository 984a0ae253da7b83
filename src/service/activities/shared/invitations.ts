/** What the invitation activities share: the one-time code, stored as an HMAC like OTP codes. */
import { base64UrlEncode } from '../../../crypto/encoding.js'
import { hashOtpCode, otpCodeMatches, otpHashKey } from '../../otp/code.js'
import type { Runtime } from '../../runtime.js'

/** How long an invitation can be accepted. */
export const INVITATION_TTL_HOURS = 72

/** A fresh one-time code: 32 CSPRNG bytes, base64url (the WebAuthn challenge of the accepting passkey). */
export function newInvitationCode(): string {
  return base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)))
}

// The OTP HMAC key, with the message prefixed so an invitation hash is never an OTP hash.
const subject = (invitationId: string) => `invitation:${invitationId}`

/** HMAC of the code under the service's OTP hash key: what is stored instead of the code. */
export function hashInvitationCode(rt: Runtime, invitationId: string, code: string): string {
  return hashOtpCode(otpHashKey(rt.keys.otpTarget.privateKey), subject(invitationId), code)
}

/** Constant-time check of a presented code against the stored hash. */
export function invitationCodeMatches(rt: Runtime, invitationId: string, code: string, storedHash: string): boolean {
  return otpCodeMatches(otpHashKey(rt.keys.otpTarget.privateKey), subject(invitationId), code, storedHash)
}
