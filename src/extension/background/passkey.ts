/**
 * Passkey sign-up and login (wire-formats B6). The popup runs WebAuthn (it must: the
 * service worker has no `navigator.credentials`); keys stay here.
 * - Sign-up: the email is verified first (signupEmail.ts: token bound to temporary key K1);
 *   `userEmail`, the token, a client signature by K1, K1 as a 60 s API key and the attestation
 *   go to relay `/v1/signup`; then create_read_write_session stamped by K1 returns the bundle.
 * - Login: the create_read_write_session body names the parent organization and a fresh HPKE
 *   target; the popup signs challenge = webauthnChallengeForBody(body) (B1.2); the stamp is
 *   sent as `X-Stamp-Webauthn` with the exact body built here (kept in storage.session).
 */
import { buildSubmitBody, type SubmitInput } from '../../api/client'
import type { ApiKeyParams, Attestation } from '../../api/common'
import { SigilRequestError } from '../../api/errors'
import { createReadWriteSession } from '../../api/operations/create_read_write_session'
import { utf8Encode } from '../../crypto/encoding'
import { createHpkeRecipientKeyPair } from '../../crypto/hpke'
import { createWebCryptoStamper } from '../../crypto/stamp'
import { webauthnChallengeForBody, type WebauthnStamp } from '../../crypto/verifyStamp'
import type { Core } from './core'
import { ExtensionError } from './failures'
import { isKeyPair, keepKey } from './keyStore'
import { completeLogin, SESSION_SECONDS } from './login'
import { clearPending, readPending, writePending } from './pending'
import type { SessionRecord } from './sessionRecord'
import { compressedPublicKeyHex, signupClientSignature } from './signupSignature'

/** gRPC ALREADY_EXISTS, the relay's answer when the email has an account (A3). */

/** What the popup sends after `navigator.credentials.create`. */
export type PasskeyRegistration = { authenticatorName: string; challenge: string; attestation: Attestation }

/** The parent organization: relay `/v1/wallet_kit_config` organizationId. */
export async function parentOrganizationId(core: Core): Promise<string> {
  return (await (await core.relay()).walletKitConfig()).organizationId
}

/** Passkey sign-up: new sub-organization for the verified email with this passkey, then a session. */
export async function passkeySignup(core: Core, p: PasskeyRegistration): Promise<SessionRecord> {
  const pending = await readPending(core.deps.session, 'passkeySignup', core.now())
  const tempPair = await core.deps.keyStore.get('signup-temp')
  if (!pending?.verificationToken || !isKeyPair(tempPair)) {
    throw new ExtensionError('NO_PENDING_LOGIN', 'Verify your email address first: it is needed to recover the account.')
  }
  const temp = { privateKey: tempPair.privateKey, publicKeyHex: await compressedPublicKeyHex(tempPair.publicKey) }
  const created = await createHpkeRecipientKeyPair(true)
  const target = { ...created, keyPair: await keepKey(core.deps.keyStore, 'login-target', created.keyPair) }
  try {
    const relay = await core.relay()
    const apiKeys: ApiKeyParams[] = [
      {
        apiKeyName: `passkey-auth-${temp.publicKeyHex}`,
        publicKey: temp.publicKeyHex,
        curveType: 'API_KEY_CURVE_P256',
        expirationSeconds: '60',
      },
    ]
    const authenticators = [{ authenticatorName: p.authenticatorName, challenge: p.challenge, attestation: p.attestation }]
    const clientSignature = await signupClientSignature(temp, pending.verificationToken, { apiKeys, authenticators, email: pending.email })
    let signup: Awaited<ReturnType<typeof relay.signup>>
    try {
      signup = await relay.signup({
        userEmail: pending.email,
        verificationToken: pending.verificationToken,
        ...(clientSignature ? { clientSignature } : {}),
        userName: pending.userName || pending.email,
        organizationName: `sub-org-${core.now()}`,
        apiKeys,
        authenticators,
        oauthProviders: [],
      })
    } catch (err) {
      if (err instanceof SigilRequestError && err.code === 'ALREADY_EXISTS') {
        await forgetSignup(core)
        throw new ExtensionError('REQUEST_FAILED', 'An account with this email already exists. Log in with an email code instead.')
      }
      throw err
    }
    // The token and K1 are spent: a retry must verify the email again.
    await forgetSignup(core)
    const tempStamper = createWebCryptoStamper(temp)
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
    await core.deps.keyStore.delete('login-target')
  }
}

async function forgetSignup(core: Core): Promise<void> {
  await clearPending(core.deps.session, 'passkeySignup')
  await core.deps.keyStore.delete('signup-temp')
}

/** Passkey login step 1: build the body and return the WebAuthn challenge over it. */
export async function beginPasskeyLogin(core: Core): Promise<{ challenge: string }> {
  const organizationId = await parentOrganizationId(core)
  const { keyPair, publicKeyUncompressedHex } = await createHpkeRecipientKeyPair(true)
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
