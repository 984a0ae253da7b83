import type { z } from 'zod'
import type { verifyOtp, verifyOtpV1 } from '../../api/operations/verify_otp.js'
import { SigilError, invalidField } from '../../api/errors.js'
import { utf8Decode } from '../../crypto/encoding.js'
import { signVerificationToken } from '../../crypto/jwt.js'
import { decryptEnvelope } from '../../crypto/signedBundle.js'
import { spendableOtp, spendOtp } from '../otp/consume.js'
import type { OtpRow } from '../store/otps.js'
import { compressedKeyHex, expirySeconds } from '../auth/sessionKeys.js'
import type { ActivityContext } from '../activityContext.js'
import type { ActivityHandler } from './types.js'

/** Verification-token lifetime: default 1 h, at most 86400 s (wire-formats B7). */
const TOKEN_DEFAULT_SECONDS = 3600
const TOKEN_MAX_SECONDS = 86400

/** Spends `otp` (found by spendableOtp, the first check of either version) with `code`, for a verification token. */
async function tokenFor(ctx: ActivityContext, found: OtpRow, code: string, publicKey: string | undefined, expiration: string | undefined) {
  const seconds = expirySeconds(expiration, 'parameters.expirationSeconds', TOKEN_DEFAULT_SECONDS)
  if (seconds > TOKEN_MAX_SECONDS) throw invalidField('parameters.expirationSeconds', `must not exceed ${TOKEN_MAX_SECONDS}`)
  const otp = await spendOtp(ctx, found, code)
  const verificationToken = signVerificationToken({
    claims: {
      exp: String(ctx.now + seconds * 1000),
      id: crypto.randomUUID(),
      organization_id: ctx.organizationId,
      verification_type: otp.otp_type,
      contact: otp.contact,
      ...(publicKey !== undefined ? { public_key: publicKey } : {}),
    },
    signerPrivateKey: ctx.rt.keys.verifier.privateKey,
  })
  return { verificationToken }
}

/**
 * verify_otp V1 (core): `{otpId, otpCode, publicKey?}` → a verification token (wire-formats B3).
 *
 * @throws INVALID_ARGUMENT when parameters.expirationSeconds is not a positive number of seconds up to 86400, parameters.publicKey is not a hex P-256 public key, or parameters.otpId was started with neither init_otp nor init_otp_auth
 * @throws NOT_FOUND when parameters.otpId names no OTP of the organization or an ancestor, or of the submitter's organization or a sub-organization of it
 * @throws OTP_EXPIRED when the OTP has already been used, has expired or has had its 5 attempts (counted before each check, atomically)
 * @throws OTP_INVALID when parameters.otpCode is not the OTP's code
 */
export const handlerV1: ActivityHandler<z.infer<typeof verifyOtpV1.parameters>> = async (ctx, p) => {
  // The otpId first: an id of no OTP (of any size) is a 404 naming it, whatever else is wrong.
  const otp = await spendableOtp(ctx, p.otpId)
  return tokenFor(
    ctx,
    otp,
    p.otpCode,
    p.publicKey === undefined ? undefined : compressedKeyHex(p.publicKey, 'parameters.publicKey'),
    p.expirationSeconds,
  )
}

/**
 * verify_otp V2: `encryptedOtpBundle` is HPKE to the service's OTP key (made by @turnkey/crypto
 * encryptOtpCodeToBundle from init_otp's target bundle), plaintext `{otp_code, public_key}` (B2).
 *
 * @throws BUNDLE_INVALID when parameters.encryptedOtpBundle cannot be decrypted with the service's OTP key or its plaintext is not JSON {otp_code, public_key}
 * @throws INVALID_ARGUMENT when parameters.expirationSeconds is not a positive number of seconds up to 86400, the bundle's public_key is not a hex P-256 public key, or parameters.otpId was not started with init_otp (whose target bundle encrypts the code)
 * @throws NOT_FOUND when parameters.otpId names no OTP of the organization or an ancestor, or of the submitter's organization or a sub-organization of it
 * @throws OTP_EXPIRED when the OTP has already been used, has expired or has had its 5 attempts (counted before each check, atomically)
 * @throws OTP_INVALID when the bundle's otp_code is not the OTP's code
 */
export const handlerV2: ActivityHandler<z.infer<typeof verifyOtp.parameters>> = async (ctx, p) => {
  // The otpId before the bundle: an id of no OTP (of any size) is a 404 naming it, not a bundle error.
  const otp = await spendableOtp(ctx, p.otpId)
  const opened = await decryptEnvelope({ envelope: p.encryptedOtpBundle, privateKey: ctx.rt.keys.otpTarget.privateKey })
  if (!opened.ok) throw new SigilError('BUNDLE_INVALID', 'parameters.encryptedOtpBundle: cannot be decrypted by this service')
  let inner: { otp_code?: unknown; public_key?: unknown }
  try {
    inner = JSON.parse(utf8Decode(opened.plaintext)) as typeof inner
  } catch {
    throw new SigilError('BUNDLE_INVALID', 'parameters.encryptedOtpBundle: plaintext is not JSON {otp_code, public_key}')
  }
  if (typeof inner.otp_code !== 'string' || (inner.public_key !== undefined && typeof inner.public_key !== 'string')) {
    throw new SigilError('BUNDLE_INVALID', 'parameters.encryptedOtpBundle: plaintext is not JSON {otp_code, public_key}')
  }
  const publicKey =
    typeof inner.public_key === 'string' ? compressedKeyHex(inner.public_key, 'parameters.encryptedOtpBundle.public_key') : undefined
  return tokenFor(ctx, otp, inner.otp_code, publicKey, p.expirationSeconds)
}
