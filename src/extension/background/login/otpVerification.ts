/**
 * Proving an email address or phone number by OTP without the code ever being readable on
 * the way (wire-formats B2 target bundles, B3 verification token, B6 auth proxy):
 * relay `/v1/otp_init_v2` answers with the service's OTP encryption target bundle, whose
 * signature is checked against the pinned identity key; the code and the new session key's
 * public key are HPKE-encrypted to it and sent to `/v1/otp_verify_v2`; the verification token
 * that comes back is verified (signature, expiry, contact, bound key), never just decoded.
 */
import { verifyVerificationToken } from '../../../crypto/jwt'
import { encryptToTargetBundle, verifyTargetBundle } from '../../../crypto/signedBundle'
import { utf8Encode } from '../../../crypto/encoding'
import type { Core } from '../core'
import { ExtensionError } from '../failures'
import type { OtpType } from '../service/relay'

const NOT_PINNED = 'The code request was not signed by the service this wallet is connected to. Nothing was sent.'

/** Ask for a code; returns the OTP id and the checked target bundle. */
export async function requestOtp(core: Core, p: { otpType: OtpType; contact: string }): Promise<{ otpId: string; targetBundle: string }> {
  const service = await core.service()
  const relay = await core.relay()
  const r = await relay.otpInitV2({ otpType: p.otpType, contact: p.contact })
  if (!verifyTargetBundle({ targetBundle: r.otpEncryptionTargetBundle, signerPublicKeyHex: service.keys.identity }).ok) {
    throw new ExtensionError('SERVICE_UNVERIFIED', NOT_PINNED)
  }
  return { otpId: r.otpId, targetBundle: r.otpEncryptionTargetBundle }
}

/**
 * Exchange `code` for a verification token bound to `publicKeyHex` (compressed), checked
 * against the pinned key; returns the token and its id.
 */
export async function verifyOtpCode(
  core: Core,
  p: { otpId: string; targetBundle: string; otpType: OtpType; contact: string; code: string; publicKeyHex: string },
): Promise<{ verificationToken: string; tokenId: string }> {
  const service = await core.service()
  const plaintext = utf8Encode(JSON.stringify({ otp_code: p.code, public_key: p.publicKeyHex }))
  const sealed = await encryptToTargetBundle({ targetBundle: p.targetBundle, plaintext, signerPublicKeyHex: service.keys.identity })
  plaintext.fill(0)
  if (!sealed.ok) throw new ExtensionError('SERVICE_UNVERIFIED', NOT_PINNED)
  const { verificationToken } = await (await core.relay()).otpVerifyV2({ otpId: p.otpId, encryptedOtpBundle: sealed.envelope })
  const v = verifyVerificationToken(verificationToken, service.keys.identity, { nowMs: core.now() })
  if (!v.ok) {
    throw new ExtensionError(
      'SERVICE_UNVERIFIED',
      'The confirmation of your code is not signed by the service this wallet is connected to.',
    )
  }
  const c = v.claims
  const bound = c.public_key !== undefined && c.public_key.toLowerCase() === p.publicKeyHex.toLowerCase()
  if (c.verification_type !== p.otpType || c.contact !== p.contact || !bound) {
    throw new ExtensionError('SERVICE_UNVERIFIED', 'The service confirmed a different contact or key. Please start again.')
  }
  return { verificationToken, tokenId: c.id }
}
