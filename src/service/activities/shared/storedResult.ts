import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8Encode } from '../../../crypto/encoding.js'
import { decodeJwtPayload } from '../../../crypto/jwt.js'

/**
 * What of an activity's result is stored, and so served again by get_activity, list_activities,
 * replays and webhooks: no bearer secret. A verification token not bound to a key is a bearer secret
 * (otp_login V1 takes it without a client signature): it is answered once, to the submitter, and
 * stored as `sha256:<hex>` of the token. A bound token is useless without its key and stays.
 * (An activity run by consensus answers its approver, not its submitter: its unbound token is only
 * ever stored as the hash.)
 */
export function storedResult(type: string, result: Record<string, unknown>): Record<string, unknown> {
  if (type !== 'ACTIVITY_TYPE_VERIFY_OTP' && type !== 'ACTIVITY_TYPE_VERIFY_OTP_V2') return result
  const token = result.verificationToken
  if (typeof token !== 'string') return result
  const claims = decodeJwtPayload(token)
  if (claims && typeof claims.public_key === 'string' && claims.public_key !== '') return result
  return { ...result, verificationToken: `sha256:${bytesToHex(sha256(utf8Encode(token)))}` }
}
