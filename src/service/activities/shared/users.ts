import type { ApiKeyParams, AuthenticatorParams, OauthProviderParams } from '../../../api/common.js'
import { invalidField } from '../../../api/errors.js'
import { ancestry } from '../../store/organizations.js'
import { deferring } from '../../store/transactions.js'
import { insertOauthProvider, insertUser } from '../../store/users.js'
import type { ActivityContext } from '../../activityContext.js'
import { registerApiKey, registerAuthenticator } from './credentials.js'
import { requireTag } from './tags.js'

export type NewUser = {
  userName: string
  userEmail?: string | undefined
  userPhoneNumber?: string | undefined
  userTags?: string[] | undefined
  apiKeys: ApiKeyParams[]
  authenticators: AuthenticatorParams[]
  oauthProviders: OauthProviderParams[]
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const PHONE = /^\+[1-9]\d{6,14}$/

/** A user's email as stored (lower case); INVALID_ARGUMENT naming `field` when malformed. */
export function checkEmail(email: string, field: string): string {
  if (!EMAIL.test(email)) throw invalidField(field, 'is not an email address')
  return email.toLowerCase()
}

/** A user's phone number (E.164); INVALID_ARGUMENT naming `field` when malformed. */
export function checkPhone(phone: string, field: string): string {
  if (!PHONE.test(phone)) throw invalidField(field, 'must be an E.164 phone number such as +15555550123')
  return phone
}

/**
 * Whether an email or phone number set without a verification token counts for login, lookup and
 * recovery (migration 020): only when the root organization's users set it — the
 * operator, whose sign-up (the relay) proves every contact it sets. A contact set by any other
 * organization's users (in their own organization or in a sub-organization they create) is stored
 * unverified and found by nothing, as anyone can type anyone's address.
 */
export async function contactsVouched(ctx: ActivityContext): Promise<boolean> {
  return (await ancestry(ctx.tx, ctx.submitter.organizationId)).length <= 1
}

/**
 * Creates a user with its credentials in `orgId`. Fields are named under `field`. Its contacts are
 * verified when `contactsVerified` says so (a verification token proved them), else as
 * {@link contactsVouched} says.
 */
export async function createUser(
  ctx: ActivityContext,
  orgId: string,
  u: NewUser & { contactsVerified?: boolean },
  field: string,
): Promise<string> {
  if (!u.userName.trim()) throw invalidField(`${field}.userName`, 'required')
  if (u.userEmail) checkEmail(u.userEmail, `${field}.userEmail`)
  if (u.userPhoneNumber) checkPhone(u.userPhoneNumber, `${field}.userPhoneNumber`)
  const tags = new Set<string>()
  for (const [j, id] of (u.userTags ?? []).entries())
    tags.add((await requireTag(ctx.tx, orgId, 'TAG_TYPE_USER', id, `${field}.userTags[${j}]`)).id)
  const userId = crypto.randomUUID()
  const contactsVerified = u.contactsVerified ?? (await contactsVouched(ctx))
  // Held back and sent with the next statement (Transaction.defer).
  await insertUser(deferring(ctx.tx), {
    id: userId,
    orgId,
    userName: u.userName,
    userEmail: u.userEmail?.toLowerCase(),
    userPhoneNumber: u.userPhoneNumber,
    userTags: [...tags],
    contactsVerified,
    now: ctx.now,
  })
  for (const [i, k] of u.apiKeys.entries()) await registerApiKey(ctx, orgId, userId, k, `${field}.apiKeys[${i}]`)
  for (const [i, a] of u.authenticators.entries()) {
    await registerAuthenticator(ctx, orgId, userId, a, `${field}.authenticators[${i}]`)
  }
  for (const [i, p] of u.oauthProviders.entries()) {
    const id = await oauthIdentity(ctx, p, `${field}.oauthProviders[${i}]`)
    await insertOauthProvider(ctx.tx, {
      id: crypto.randomUUID(),
      orgId,
      userId,
      providerName: p.providerName,
      issuer: id.iss,
      audience: id.aud,
      subject: id.sub,
      verified: id.verified,
      now: ctx.now,
    })
  }
  return userId
}

/**
 * The OIDC identity `{iss, aud, sub}` an OAuth provider parameter names: its `oidcToken` verified
 * (signature, trusted issuer, audience, expiry; src/service/oidc/verify.ts) → `verified`, or the
 * `oidcClaims` the organization states itself (V2 parameters) → not `verified`: such a link is kept
 * as a record and never logs anyone in (the login lookups read verified links only). Both given:
 * they must name the same identity. `requireToken` (adding a provider to an existing user) refuses
 * claims alone.
 *
 * @throws TOKEN_INVALID naming `field.oidcToken` when the token does not verify
 * @throws INVALID_ARGUMENT naming `field` when neither is given, `field.oidcToken` when `requireToken` and only claims are given, or `field.oidcClaims` when it disagrees with the token
 */
export async function oauthIdentity(
  ctx: ActivityContext,
  p: OauthProviderParams,
  field: string,
  o: { requireToken?: boolean } = {},
): Promise<{ iss: string; aud: string; sub: string; verified: boolean }> {
  if (p.oidcToken !== undefined) {
    const t = await ctx.rt.oidc.verify(p.oidcToken, { field: `${field}.oidcToken` })
    const c = p.oidcClaims
    if (c && (c.iss.replace(/\/+$/, '') !== t.iss || c.aud !== t.aud || c.sub !== t.sub)) {
      throw invalidField(`${field}.oidcClaims`, 'names another identity than oidcToken')
    }
    return { iss: t.iss, aud: t.aud, sub: t.sub, verified: true }
  }
  if (p.oidcClaims && o.requireToken) {
    throw invalidField(
      `${field}.oidcToken`,
      'required: an OAuth identity is added only with a verified ID token of it (oidcClaims alone prove nothing)',
    )
  }
  if (p.oidcClaims) return { ...p.oidcClaims, verified: false }
  throw invalidField(field, 'needs oidcToken or oidcClaims')
}
