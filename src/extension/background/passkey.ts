/**
 * Passkey sign-up and login (wire-formats B6). The popup runs WebAuthn (it must: the
 * service worker has no `navigator.credentials`); keys stay here.
 * - Sign-up: temporary key K1 (60 s API key) + the attestation go to relay `/v1/signup`;
 *   then create_read_write_session stamped by K1 returns the long session's bundle.
 * - Login: the create_read_write_session body names the parent organization and a fresh HPKE
 *   target; the popup signs challenge = webauthnChallengeForBody(body) (B1.2); the stamp is
 *   sent as `X-Stamp-Webauthn` with the exact body built here (kept in storage.session).
 */
import { buildSubmitBody, type SubmitInput } from '../../api/client'
import type { Attestation } from '../../api/common'
import { createReadWriteSession } from '../../api/operations/create_read_write_session'
import { utf8Encode } from '../../crypto/encoding'
import { createHpkeRecipientKeyPair } from '../../crypto/hpke'
import { createP256WebCryptoKeyPair, createWebCryptoStamper } from '../../crypto/stamp'
import { webauthnChallengeForBody, type WebauthnStamp } from '../../crypto/verifyStamp'
import type { Core } from './core'
import { ExtensionError } from './failures'
import { isKeyPair } from './keyStore'
import { completeLogin, SESSION_SECONDS } from './login'
import { clearPending, readPending, writePending } from './pending'
import type { SessionRecord } from './sessionRecord'

/** What the popup sends after `navigator.credentials.create`. */
export type PasskeyRegistration = { authenticatorName: string; challenge: string; attestation: Attestation }

/** The parent organization: relay `/v1/wallet_kit_config` organizationId. */
export async function parentOrganizationId(core: Core): Promise<string> {
  return (await (await core.relay()).walletKitConfig()).organizationId
}

/** Passkey sign-up: new sub-organization with this passkey, then a session. */
export async function passkeySignup(
  core: Core,
  p: PasskeyRegistration & { userName?: string | undefined },
): Promise<SessionRecord> {
  const temp = await createP256WebCryptoKeyPair()
  await core.deps.keyStore.put('signup-temp', temp.keyPair)
  const target = await createHpkeRecipientKeyPair()
  await core.deps.keyStore.put('login-target', target.keyPair)
  try {
    const relay = await core.relay()
    // No email here: the relay signs a contact up only with a verification token (OTP flow).
    const signup = await relay.signup({
      userName: p.userName || `user-${core.now()}`,
      organizationName: `sub-org-${core.now()}`,
      apiKeys: [
        {
          apiKeyName: `passkey-auth-${temp.publicKeyHex}`,
          publicKey: temp.publicKeyHex,
          curveType: 'API_KEY_CURVE_P256',
          expirationSeconds: '60',
        },
      ],
      authenticators: [{ authenticatorName: p.authenticatorName, challenge: p.challenge, attestation: p.attestation }],
      oauthProviders: [],
    })
    const tempStamper = createWebCryptoStamper({ privateKey: temp.keyPair.privateKey, publicKeyHex: temp.publicKeyHex })
    const client = await core.api(tempStamper)
    const session = await client.createReadWriteSession({
      organizationId: signup.organizationId,
      targetPublicKey: target.publicKeyUncompressedHex,
      userId: signup.userId,
      apiKeyName: `sigil-session-${core.now()}`,
      expirationSeconds: String(SESSION_SECONDS),
    })
    if (!('credentialBundle' in session)) throw new ExtensionError('REQUEST_FAILED', 'The service did not open a session.')
    return await completeLogin(core, {
      bundle: session.credentialBundle,
      target: target.keyPair,
      organizationId: session.organizationId,
      userId: session.userId,
      username: session.username,
      method: 'passkey',
    })
  } finally {
    await core.deps.keyStore.delete('signup-temp')
    await core.deps.keyStore.delete('login-target')
  }
}

/** Passkey login step 1: build the body and return the WebAuthn challenge over it. */
export async function beginPasskeyLogin(core: Core): Promise<{ challenge: string }> {
  const organizationId = await parentOrganizationId(core)
  const { keyPair, publicKeyUncompressedHex } = await createHpkeRecipientKeyPair()
  await core.deps.keyStore.put('login-target', keyPair)
  const input: SubmitInput<typeof createReadWriteSession> = {
    organizationId,
    targetPublicKey: publicKeyUncompressedHex,
    apiKeyName: `sigil-session-${core.now()}`,
    expirationSeconds: String(SESSION_SECONDS),
  }
  const body = buildSubmitBody(createReadWriteSession, input, core.now)
  const { apiBaseUrl } = await core.settings()
  await writePending(core.deps.session, 'passkeyLogin', { body, url: apiBaseUrl + createReadWriteSession.path, createdAt: core.now() })
  return { challenge: webauthnChallengeForBody(utf8Encode(body)) }
}

/** Passkey login step 2: send the body with the assertion as `X-Stamp-Webauthn`, open the bundle. */
export async function finishPasskeyLogin(core: Core, assertion: WebauthnStamp): Promise<SessionRecord> {
  const pending = await readPending(core.deps.session, 'passkeyLogin', core.now())
  const target = await core.deps.keyStore.get('login-target')
  if (!pending || !isKeyPair(target)) throw new ExtensionError('NO_PENDING_LOGIN', 'The passkey request has expired. Please try again.')
  try {
    const client = await core.api({ stamp: () => Promise.reject(new Error('unused')) })
    const stampHeaderValue = JSON.stringify({
      authenticatorData: assertion.authenticatorData,
      clientDataJson: assertion.clientDataJson,
      credentialId: assertion.credentialId,
      signature: assertion.signature,
    })
    const res = await client.sendSigned(createReadWriteSession, {
      url: pending.url,
      body: pending.body,
      stamp: { stampHeaderName: 'X-Stamp-Webauthn', stampHeaderValue },
    })
    if (!('credentialBundle' in res)) throw new ExtensionError('REQUEST_FAILED', 'The service did not open a session.')
    return await completeLogin(core, {
      bundle: res.credentialBundle,
      target,
      organizationId: res.organizationId,
      userId: res.userId,
      username: res.username,
      method: 'passkey',
    })
  } finally {
    await clearPending(core.deps.session, 'passkeyLogin')
    await core.deps.keyStore.delete('login-target')
  }
}
