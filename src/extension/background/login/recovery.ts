/**
 * Email recovery: relay `/v1/recovery_init` emails a credential bundle encrypted to
 * a fresh HPKE target (kept in IndexedDB until used) and names the user's organization; the
 * pasted bundle is opened into a
 * short-lived recovery key which stamps `recover_user` to register a new passkey. The popup
 * then logs in with that passkey, and only it (passkey.ts `allowCredentials`: another
 * account's passkey on the same authenticator must not open instead). The recovery key never
 * outlives this call.
 */
import { createHpkeRecipientKeyPair } from '../../../crypto/hpke'
import { createWebCryptoStamper } from '../../../crypto/stamp'
import type { Core } from '../core'
import { ExtensionError } from '../failures'
import { isKeyPair } from '../session/keyStore'
import { importBundleKey } from './credentialBundle'
import type { PasskeyRegistration } from './passkey'
import { clearPending, readPending, writePending } from './pending'

/** Step 1: request the recovery email. */
export async function startRecovery(core: Core, p: { email: string }): Promise<{ email: string }> {
  const { keyPair, publicKeyUncompressedHex } = await createHpkeRecipientKeyPair(true)
  await core.deps.keyStore.put('recovery-target', keyPair)
  const res = await (await core.relay()).recoveryInit({ email: p.email, targetPublicKey: publicKeyUncompressedHex })
  await writePending(core.deps.session, 'recovery', {
    email: p.email,
    organizationId: res.organizationId,
    userId: res.userId,
    createdAt: core.now(),
  })
  return { email: p.email }
}

/** Step 2: open the pasted bundle and register the new passkey with recover_user. */
export async function finishRecovery(
  core: Core,
  p: PasskeyRegistration & { bundle: string },
): Promise<{ authenticatorIds: string[]; email: string }> {
  const pending = await readPending(core.deps.session, 'recovery', core.now())
  const target = await core.deps.keyStore.get('recovery-target')
  if (!pending || !isKeyPair(target)) throw new ExtensionError('NO_PENDING_LOGIN', 'The recovery request has expired. Please start again.')
  const key = await importBundleKey(p.bundle, target)
  const client = await core.api(createWebCryptoStamper(key))
  const res = await client.recoverUser({
    organizationId: pending.organizationId,
    userId: pending.userId,
    authenticator: { authenticatorName: p.authenticatorName, challenge: p.challenge, attestation: p.attestation },
  })
  await clearPending(core.deps.session, 'recovery')
  await core.deps.keyStore.delete('recovery-target')
  return { authenticatorIds: 'authenticatorId' in res ? res.authenticatorId : [], email: pending.email }
}
