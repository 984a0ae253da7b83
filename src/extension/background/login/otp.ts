/**
 * Email / SMS OTP login and sign-up through the relay (session keys never
 * travel). Step 1 asks for a code and keeps the service's signed OTP target bundle. Step 2
 * makes the session key here, proves the contact with the code encrypted to that bundle
 * (otpVerification.ts), creates the account on first use (`/v1/signup_v2` with a client
 * signature) and logs in with `/v1/otp_login_v2`: the service registers the extension's own
 * public key and answers with a session JWT, checked against the pinned service. No key
 * crosses the relay, so a relay in the middle learns nothing that logs in. A new account is opened
 * only when it holds the contact and the session key, nothing else (signupCheck.ts).
 */
import { DEFAULT_WALLET } from '../../../api/defaultWallet'
import { SigilRequestError } from '../../../api/errors'
import type { Core } from '../core'
import { ExtensionError } from '../failures'
import { normalContact } from '../../../api/contact'
import { requestOtp, verifyOtpCode } from './otpVerification'
import { clearPending, readPending, writePending } from './pending'
import type { OtpType } from '../service/relay'
import { createSessionKey, startJwtSession } from './sessionLogin'
import type { SessionRecord } from '../session/sessionRecord'
import { startSignupSession } from './signupCheck'
import { loginClientSignature, signupClientSignature } from './signupSignature'

/** Step 1: ask the relay to send a code to `contact`. */
export async function startOtp(core: Core, p: { otpType: OtpType; contact: string }): Promise<{ otpType: OtpType; contact: string }> {
  const contact = normalContact(p.otpType, p.contact)
  const { otpId, targetBundle } = await requestOtp(core, { otpType: p.otpType, contact })
  await writePending(core.deps.session, 'otp', { otpId, otpType: p.otpType, contact, targetBundle, createdAt: core.now() })
  return { otpType: p.otpType, contact }
}

/** Step 2: prove the contact with the code, sign up on first use, log in with a key made here. */
export async function verifyOtp(core: Core, p: { code: string }): Promise<SessionRecord> {
  const pending = await readPending(core.deps.session, 'otp', core.now())
  if (!pending) throw new ExtensionError('NO_PENDING_LOGIN', 'The code request has expired. Please ask for a new code.')
  const key = await createSessionKey()
  const { verificationToken, tokenId } = await verifyOtpCode(core, { ...pending, code: p.code, publicKeyHex: key.publicKeyHex })
  // The code is spent: whatever happens next, a retry needs a new one.
  await clearPending(core.deps.session, 'otp')
  const relay = await core.relay()
  const email = pending.otpType === 'OTP_TYPE_EMAIL'
  let { organizationId } = await relay.account({
    filterType: email ? 'EMAIL' : 'PHONE_NUMBER',
    filterValue: pending.contact,
    verificationToken,
  })
  const signedUp = !organizationId
  if (!organizationId) {
    const clientSignature = await signupClientSignature(key, tokenId, {
      apiKeys: [],
      authenticators: [],
      ...(email ? { email: pending.contact } : { phoneNumber: pending.contact }),
      wallet: DEFAULT_WALLET,
    })
    try {
      const signup = await relay.signup({
        ...(email ? { userEmail: pending.contact } : { userPhoneNumber: pending.contact }),
        userName: pending.contact,
        verificationToken,
        clientSignature,
        apiKeys: [],
        authenticators: [],
        oauthProviders: [],
        wallet: DEFAULT_WALLET,
      })
      organizationId = signup.organizationId
    } catch (err) {
      if (err instanceof SigilRequestError && err.code === 'ALREADY_EXISTS') {
        throw new ExtensionError('REQUEST_FAILED', 'This account was just created elsewhere. Please ask for a new code.')
      }
      throw err
    }
  }
  const { session } = await relay.otpLogin({
    verificationToken,
    publicKey: key.publicKeyHex,
    clientSignature: await loginClientSignature(key, tokenId),
    organizationId,
  })
  const opened = { jwt: session, key, method: email ? ('email' as const) : ('sms' as const), username: pending.contact }
  // A new account is opened only if it holds nothing but what this sign-up made.
  if (signedUp) {
    return startSignupSession(core, {
      ...opened,
      signup: { organizationId, ...(email ? { email: pending.contact } : { phoneNumber: pending.contact }) },
    })
  }
  return startJwtSession(core, opened)
}
