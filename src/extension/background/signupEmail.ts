/**
 * Passkey sign-up's email step (wire-formats B6 auth proxy, B3 verification token): relay
 * `/v1/otp_init` sends a code; `/v1/otp_verify` with the public key of a fresh temporary key
 * K1 (non-extractable, kept in IndexedDB as `signup-temp`) returns a verification token bound
 * to K1. `/v1/account` with that token says whether the email already has an account; if not,
 * the token waits in `storage.session` for {@link passkeySignup} (passkey.ts).
 */
import { decodeJwtPayload } from '../../crypto/jwt'
import { createP256WebCryptoKeyPair } from '../../crypto/stamp'
import type { Core } from './core'
import { ExtensionError } from './failures'
import { clearPending, readPending, writePending, type Pending } from './pending'

/** What the popup sees of a pending passkey sign-up. */
export type SignupEmailView = { email: string; verified: boolean }

/** The relay's form of an email address (trimmed, lower case), as verification tokens carry it. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

/** The pending sign-up as the popup may see it (no token). */
export function signupEmailView(p: Pending<'passkeySignup'>): SignupEmailView {
  return { email: p.email, verified: p.verificationToken !== undefined }
}

/** Step 1: send a code to `email`; any earlier sign-up attempt is dropped. */
export async function startSignupEmail(core: Core, p: { email: string; userName?: string | undefined }): Promise<SignupEmailView> {
  const email = normaliseEmail(p.email)
  await clearPending(core.deps.session, 'passkeySignup')
  await core.deps.keyStore.delete('signup-temp')
  const { otpId } = await (await core.relay()).otpInit({ otpType: 'OTP_TYPE_EMAIL', contact: email })
  const userName = p.userName?.trim()
  await writePending(core.deps.session, 'passkeySignup', { email, otpId, createdAt: core.now(), ...(userName ? { userName } : {}) })
  return { email, verified: false }
}

/**
 * Step 2: exchange the code for a verification token bound to a new temporary key. When the
 * email already has an account the sign-up ends here (`accountExists: true`) and the popup
 * offers an email-code login instead.
 */
export async function verifySignupEmail(core: Core, p: { code: string }): Promise<SignupEmailView & { accountExists: boolean }> {
  const pending = await readPending(core.deps.session, 'passkeySignup', core.now())
  if (!pending) throw new ExtensionError('NO_PENDING_LOGIN', 'The code request has expired. Please ask for a new code.')
  if (pending.verificationToken !== undefined) return { ...signupEmailView(pending), accountExists: false }
  const temp = await createP256WebCryptoKeyPair(true)
  const relay = await core.relay()
  const { verificationToken } = await relay.otpVerify({ otpId: pending.otpId, otpCode: p.code, publicKey: temp.publicKeyHex })
  const claims = decodeJwtPayload(verificationToken)
  const boundKey = claims?.public_key
  if (claims?.contact !== pending.email || (boundKey !== undefined && String(boundKey).toLowerCase() !== temp.publicKeyHex)) {
    throw new ExtensionError('REQUEST_FAILED', 'The service confirmed a different email address or key. Please start again.')
  }
  const { organizationId } = await relay.account({ filterType: 'EMAIL', filterValue: pending.email, verificationToken })
  if (organizationId) {
    await clearPending(core.deps.session, 'passkeySignup')
    return { email: pending.email, verified: true, accountExists: true }
  }
  await core.deps.keyStore.put('signup-temp', temp.keyPair)
  await writePending(core.deps.session, 'passkeySignup', { ...pending, verificationToken })
  return { email: pending.email, verified: true, accountExists: false }
}
