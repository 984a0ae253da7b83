/**
 * Passkey sign-up's email step (wire-formats B6 auth proxy, B3 verification token): the code
 * is asked for and proven as in an OTP login (otpVerification.ts: encrypted to the service's
 * signed target bundle, the token verified against the pinned key), binding the token to a
 * fresh temporary key K1 (kept sealed as `signup-temp`). `/v1/account` with that token says
 * whether the email already has an account; if not, the token waits in `storage.session`
 * for {@link passkeySignup} (passkey.ts).
 */
import { createP256WebCryptoKeyPair } from '../../../crypto/stamp'
import type { Core } from '../core'
import { ExtensionError } from '../failures'
import { normalContact } from '../../../api/contact'
import { requestOtp, verifyOtpCode } from './otpVerification'
import { clearPending, readPending, writePending, type Pending } from './pending'

/** What the popup sees of a pending passkey sign-up. */
export type SignupEmailView = { email: string; verified: boolean }

/** The pending sign-up as the popup may see it (no token). */
export function signupEmailView(p: Pending<'passkeySignup'>): SignupEmailView {
  return { email: p.email, verified: p.verificationToken !== undefined }
}

/** Step 1: send a code to `email`; any earlier sign-up attempt is dropped. */
export async function startSignupEmail(core: Core, p: { email: string; userName?: string | undefined }): Promise<SignupEmailView> {
  const email = normalContact('OTP_TYPE_EMAIL', p.email)
  await clearPending(core.deps.session, 'passkeySignup')
  await core.deps.keyStore.delete('signup-temp')
  const { otpId, targetBundle } = await requestOtp(core, { otpType: 'OTP_TYPE_EMAIL', contact: email })
  const userName = p.userName?.trim()
  await writePending(core.deps.session, 'passkeySignup', {
    email,
    otpId,
    targetBundle,
    createdAt: core.now(),
    ...(userName ? { userName } : {}),
  })
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
  const { verificationToken, tokenId } = await verifyOtpCode(core, {
    otpId: pending.otpId,
    targetBundle: pending.targetBundle,
    otpType: 'OTP_TYPE_EMAIL',
    contact: pending.email,
    code: p.code,
    publicKeyHex: temp.publicKeyHex,
  })
  const relay = await core.relay()
  const { organizationId } = await relay.account({ filterType: 'EMAIL', filterValue: pending.email, verificationToken })
  if (organizationId) {
    await clearPending(core.deps.session, 'passkeySignup')
    return { email: pending.email, verified: true, accountExists: true }
  }
  await core.deps.keyStore.put('signup-temp', temp.keyPair)
  await writePending(core.deps.session, 'passkeySignup', { ...pending, verificationToken, tokenId })
  return { email: pending.email, verified: true, accountExists: false }
}
