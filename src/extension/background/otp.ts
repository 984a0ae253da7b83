/**
 * Email / SMS OTP login and sign-up through the relay (issue 7): `/v1/otp_init` sends the
 * code; `/v1/otp_auth` with a fresh HPKE target key (non-extractable, kept in IndexedDB while
 * the login runs) returns a credential bundle for the contact's sub-organization (created on
 * first use), which {@link completeLogin} turns into a session.
 */
import { createHpkeRecipientKeyPair } from '../../crypto/hpke'
import type { Core } from './core'
import { ExtensionError } from './failures'
import { keepKey } from './keyStore'
import { completeLogin } from './login'
import { clearPending, readPending, writePending } from './pending'
import type { OtpType } from './relay'
import type { SessionRecord } from './sessionRecord'

/** Step 1: ask the relay to send a code to `contact`. */
export async function startOtp(core: Core, p: { otpType: OtpType; contact: string }): Promise<{ otpType: OtpType; contact: string }> {
  const relay = await core.relay()
  const { otpId } = await relay.otpInit({ otpType: p.otpType, contact: p.contact })
  await writePending(core.deps.session, 'otp', { otpId, otpType: p.otpType, contact: p.contact, createdAt: core.now() })
  return { otpType: p.otpType, contact: p.contact }
}

/** Step 2: exchange the code for a credential bundle and start the session. */
export async function verifyOtp(core: Core, p: { code: string }): Promise<SessionRecord> {
  const pending = await readPending(core.deps.session, 'otp', core.now())
  if (!pending) throw new ExtensionError('NO_PENDING_LOGIN', 'The code request has expired. Please ask for a new code.')
  const created = await createHpkeRecipientKeyPair(true)
  const { publicKeyUncompressedHex } = created
  const keyPair = await keepKey(core.deps.keyStore, 'login-target', created.keyPair)
  try {
    const relay = await core.relay()
    const res = await relay.otpAuth({ otpId: pending.otpId, otpCode: p.code, targetPublicKey: publicKeyUncompressedHex })
    const record = await completeLogin(core, {
      bundle: res.credentialBundle,
      target: keyPair,
      organizationId: res.organizationId,
      userId: res.userId,
      method: pending.otpType === 'OTP_TYPE_SMS' ? 'sms' : 'email',
    })
    await clearPending(core.deps.session, 'otp')
    return record
  } finally {
    await core.deps.keyStore.delete('login-target')
  }
}
