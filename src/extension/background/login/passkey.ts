/**
 * Passkey sign-up and login (wire-formats B6; session keys never travel). The popup
 * runs WebAuthn (it must: the service worker has no `navigator.credentials`); keys stay here,
 * and every session key is made here: the service only ever learns its public key.
 * - Sign-up: the email is verified first (signupEmail.ts: token bound to temporary key K1);
 *   `userEmail`, the token, a client signature by K1, K1 as a 60 s API key and the attestation
 *   go to relay `/v1/signup_v2`; then `stamp_login` stamped by K1 registers the new session key.
 * - Login: a `stamp_login` body naming the parent organization and the new session key's
 *   public key; the popup signs challenge = webauthnChallengeForBody(body) (B1.2); the stamp
 *   is sent as `X-Stamp-Webauthn` with the exact body built here (kept in storage.session),
 *   the key waiting sealed in the `login-target` slot. When Sigil knows which passkey it
 *   expects (the one recovery just registered, the last account's on unlock), the
 *   login asks for that credential only (`allowCredentials`) and refuses an assertion by another.
 * Both answer with a session JWT, checked against the pinned service (sessionLogin.ts); after a
 * sign-up the new account is opened only when it holds the email, this passkey, K1 and the session
 * key, nothing else (signupCheck.ts).
 */
import { DEFAULT_WALLET } from '../../../api/defaultWallet'
import { buildSubmitBody, type SubmitInput } from '../../../api/client'
import type { ApiKeyParams, Attestation } from '../../../api/common'
import { SigilRequestError } from '../../../api/errors'
import { stampLogin } from '../../../api/operations/stamp_login'
import { utf8Encode } from '../../../crypto/encoding'
import { createWebCryptoStamper } from '../../../crypto/stamp'
import { webauthnChallengeForBody, type WebauthnStamp } from '../../../crypto/verifyStamp'
import type { Core } from '../core'
import { ExtensionError } from '../failures'
import { isKeyPair } from '../session/keyStore'
import { clearPending, readPending, writePending } from './pending'
import { createSessionKey, startJwtSession } from './sessionLogin'
import type { SessionRecord } from '../session/sessionRecord'
import { startSignupSession } from './signupCheck'
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
  const clientSignature = await signupClientSignature(temp, pending.tokenId ?? '', {
    apiKeys,
    authenticators,
    email: pending.email,
    wallet: DEFAULT_WALLET,
  })
  let signup: Awaited<ReturnType<typeof relay.signup>>
  try {
    signup = await relay.signup({
      userEmail: pending.email,
      verificationToken: pending.verificationToken,
      clientSignature,
      userName: pending.userName || pending.email,
      organizationName: `sub-org-${core.now()}`,
      apiKeys,
      authenticators,
      oauthProviders: [],
      wallet: DEFAULT_WALLET,
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
  const key = await createSessionKey()
  const client = await core.api(createWebCryptoStamper(temp))
  const res = await client.stampLogin({
    organizationId: signup.organizationId,
    publicKey: key.publicKeyHex,
    expirationSeconds: String((await core.settings()).sessionSeconds),
  })
  if (!('session' in res)) throw new ExtensionError('REQUEST_FAILED', 'The service did not open a session.')
  // Opened only if the new account holds nothing but what this sign-up made.
  return startSignupSession(core, {
    jwt: res.session,
    key,
    method: 'passkey',
    username: pending.userName || pending.email,
    signup: {
      organizationId: signup.organizationId,
      apiKeys: [temp.publicKeyHex],
      credentialId: p.attestation.credentialId,
      email: pending.email,
    },
  })
}

async function forgetSignup(core: Core): Promise<void> {
  await clearPending(core.deps.session, 'passkeySignup')
  await core.deps.keyStore.delete('signup-temp')
}

/**
 * Passkey login step 1: make the session key, build the stamp_login body and return the WebAuthn
 * challenge over it, with the credentials the assertion may use (`[credentialId]` when one is
 * expected, the account's `credentialIds` when the account is known but not its passkey, else any).
 */
export async function beginPasskeyLogin(
  core: Core,
  p: { credentialId?: string | undefined; credentialIds?: readonly string[] | undefined } = {},
): Promise<{ challenge: string; allowCredentials: string[] }> {
  const allowCredentials = p.credentialId ? [p.credentialId] : [...(p.credentialIds ?? [])]
  const organizationId = await parentOrganizationId(core)
  const created = await createSessionKey()
  // Sealed while the user answers the passkey prompt; only its public key is in the body.
  await core.deps.keyStore.put('login-target', created.privateKey)
  const input: SubmitInput<typeof stampLogin> = {
    organizationId,
    publicKey: created.publicKeyHex,
    expirationSeconds: String((await core.settings()).sessionSeconds),
  }
  const body = buildSubmitBody(stampLogin, input, core.now)
  const { apiBaseUrl } = await core.service()
  await writePending(core.deps.session, 'passkeyLogin', {
    body,
    url: apiBaseUrl + stampLogin.path,
    publicKeyHex: created.publicKeyHex,
    ...(p.credentialId ? { credentialId: p.credentialId } : {}),
    ...(!p.credentialId && allowCredentials.length > 0 ? { credentialIds: allowCredentials } : {}),
    createdAt: core.now(),
  })
  return { challenge: webauthnChallengeForBody(utf8Encode(body)), allowCredentials }
}

/** Passkey login step 2: send the body with the assertion as `X-Stamp-Webauthn`, check the session JWT. */
export async function finishPasskeyLogin(core: Core, assertion: WebauthnStamp): Promise<SessionRecord> {
  const pending = await readPending(core.deps.session, 'passkeyLogin', core.now())
  const sealed = await core.deps.keyStore.get('login-target')
  if (!pending || sealed === undefined || isKeyPair(sealed)) {
    throw new ExtensionError('NO_PENDING_LOGIN', 'The passkey request has expired. Please try again.')
  }
  try {
    const expected = pending.credentialId !== undefined ? [pending.credentialId] : pending.credentialIds
    if (expected !== undefined && !expected.includes(assertion.credentialId)) {
      throw new ExtensionError(
        'INVALID_ARGUMENT',
        'That passkey belongs to another account. Use the passkey of the account you are opening.',
      )
    }
    const client = await core.api({ stamp: () => Promise.reject(new Error('unused')) })
    const stampHeaderValue = JSON.stringify({
      authenticatorData: assertion.authenticatorData,
      clientDataJson: assertion.clientDataJson,
      credentialId: assertion.credentialId,
      signature: assertion.signature,
    })
    const res = await client.sendSigned(stampLogin, {
      url: pending.url,
      body: pending.body,
      stamp: { stampHeaderName: 'X-Stamp-Webauthn', stampHeaderValue },
    })
    if (!('session' in res)) throw new ExtensionError('REQUEST_FAILED', 'The service did not open a session.')
    // The key stays sealed: the session adopts the slot's blob (the store's copy signs meanwhile).
    const key = { privateKey: sealed, publicKeyHex: pending.publicKeyHex }
    return await startJwtSession(core, {
      jwt: res.session,
      key,
      method: 'passkey',
      sealedSlot: 'login-target',
      credentialId: assertion.credentialId,
    })
  } finally {
    await clearPending(core.deps.session, 'passkeyLogin')
    await core.deps.keyStore.delete('login-target')
  }
}
