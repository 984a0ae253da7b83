/**
 * The new account holds only what this sign-up created (client side). A relay
 * in the middle (or one holding the operator's key) can add its own API key, passkey, OAuth
 * identity, contact or user to the `/v1/signup_v2` it forwards; a sign-up without a verification
 * token has no client signature the service could check, so the extension checks the result
 * itself. Right after a sign-up it made, once the service answered with a session JWT for the
 * extension's own key, it reads the new organization with that key (get_organization, parsed by
 * the typed client's schema) and opens it only when it holds exactly: one user, the root quorum
 * of that user alone (threshold 1), no invitation, API keys made in this flow only (the session
 * key, and the temporary sign-up key of a passkey sign-up), the passkey just registered (if any),
 * the OAuth identity just used (if any), and the contact just verified (if any). Anything else:
 * the session key is revoked (delete_api_keys stamped by itself, best effort), nothing is stored,
 * and the sign-up fails with SERVICE_UNVERIFIED.
 */
import type { z } from 'zod'
import type { getOrganization } from '../../../api/operations/get_organization'
import { normalContact } from '../../../api/contact'
import { createWebCryptoStamper } from '../../../crypto/stamp'
import type { Core } from '../core'
import { ExtensionError } from '../failures'
import { revokeApiKey } from '../session/revocation'
import { checkSessionJwt, startJwtSession } from './sessionLogin'
import type { SessionRecord } from '../session/sessionRecord'

/** What the sign-up this extension just made created, besides the session key. */
export type SignupExpectation = {
  /** The organization the relay said it created. */
  organizationId: string
  /** Public keys (hex) of the other API keys this flow made (a passkey sign-up's temporary key). */
  apiKeys?: readonly string[]
  /** Credential id of the passkey the user just registered. */
  credentialId?: string
  /** The OAuth identity just used: the ID token's issuer and subject. */
  oauth?: { issuer: string; subject: string }
  /** The verified contact the account was made for (none for an OAuth sign-up). */
  email?: string
  phoneNumber?: string
}

type Organization = z.output<typeof getOrganization.response>['organizationData']

/** The user's message: what happened and what to do; no key, token or identifier. */
export function refusedMessage(what: readonly string[]): string {
  return (
    `The relay added a credential you did not create to your new account (${what.join(', ')}). ` +
    'Sigil did not open it; check the Relay URL in Settings.'
  )
}

const email = (s: string | undefined) => (s ? normalContact('OTP_TYPE_EMAIL', s) : undefined)
const trimmed = (s: string | undefined) => (s ? s.trim() : undefined)

/**
 * What `org` holds beyond {@link SignupExpectation} for the user `userId` whose session key is
 * `sessionKeyHex`, named for people ("an API key", "a passkey", …); empty when nothing.
 */
export function unexpectedCredentials(org: Organization, userId: string, sessionKeyHex: string, expected: SignupExpectation): string[] {
  const found = new Set<string>()
  const user = org.users.find((u) => u.userId === userId)
  if (!user || org.users.length !== 1) found.add('another user')
  const quorum = org.rootQuorum
  if (quorum.threshold !== 1 || quorum.userIds.length !== 1 || quorum.userIds[0] !== userId) found.add('another root user')
  if (org.invitations.length > 0) found.add('an invitation')
  for (const u of org.users) {
    if (u.userId !== userId) continue
    const keys = new Set([sessionKeyHex, ...(expected.apiKeys ?? [])].map((k) => k.toLowerCase()))
    if (u.apiKeys.some((k) => !keys.has(k.credential.publicKey.toLowerCase()))) found.add('an API key')
    if (u.authenticators.some((a) => a.credentialId !== expected.credentialId)) found.add('a passkey')
    const oauth = expected.oauth
    if (u.oauthProviders.some((p) => !oauth || p.issuer !== oauth.issuer || p.subject !== oauth.subject)) found.add('a sign-in identity')
    if (email(u.userEmail) !== email(expected.email)) found.add('an email address')
    if (trimmed(u.userPhoneNumber) !== trimmed(expected.phoneNumber)) found.add('a phone number')
  }
  return [...found]
}

/**
 * {@link startJwtSession} for an account this extension just signed up: checks the JWT, reads the
 * new organization with the session key and starts the session only when it holds what the flow
 * created ({@link unexpectedCredentials}); otherwise revokes the key and throws SERVICE_UNVERIFIED.
 */
export async function startSignupSession(
  core: Core,
  opts: Parameters<typeof startJwtSession>[1] & { signup: SignupExpectation },
): Promise<SessionRecord> {
  const { signup, ...session } = opts
  const service = await core.service()
  const claims = checkSessionJwt(session.jwt, service, session.key.publicKeyHex, core.now())
  const stamper = createWebCryptoStamper(session.key)
  const revoke = () =>
    revokeApiKey(
      { apiBaseUrl: service.apiBaseUrl, stamper, ...(core.deps.fetch ? { fetch: core.deps.fetch } : {}) },
      {
        v: 1,
        organizationId: claims.organizationId,
        userId: claims.userId,
        publicKeyHex: session.key.publicKeyHex,
        expiresAt: claims.expiresAt,
      },
    )
  if (claims.organizationId !== signup.organizationId) {
    await revoke()
    throw new ExtensionError(
      'SERVICE_UNVERIFIED',
      'The relay opened another account than the one it created for you. Sigil did not open it; check the Relay URL in Settings.',
    )
  }
  let found: string[]
  try {
    const client = await core.api(stamper)
    const { organizationData } = await client.getOrganization({ organizationId: claims.organizationId })
    found = unexpectedCredentials(organizationData, claims.userId, session.key.publicKeyHex, signup)
  } catch (err) {
    // Unread is unchecked: the account is not opened either way.
    await revoke()
    throw err
  }
  if (found.length > 0) {
    await revoke()
    throw new ExtensionError('SERVICE_UNVERIFIED', refusedMessage(found))
  }
  return startJwtSession(core, session)
}
