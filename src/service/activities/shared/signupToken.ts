import { z } from 'zod'
import { ApiKeyParams, AuthenticatorParams, type ClientSignature, OauthProviderParams } from '../../../api/common.js'
import { fieldError, invalidField } from '../../../api/errors.js'
import { WalletParams } from '../../../api/operations/create_sub_organization.js'
import { canonicalJson } from '../../../crypto/appProof.js'
import { verifyClientSignature, verifyVerificationToken } from '../../../crypto/jwt.js'
import { isSelfOrAncestor } from '../../store/organizations.js'
import type { ActivityContext } from '../../activityContext.js'
import { compressedKeyHex } from '../../auth/sessionKeys.js'

/** The root user of a signed sign-up as create_sub_organization V8 holds it. */
type RootUser = {
  userEmail?: string | undefined
  userPhoneNumber?: string | undefined
  apiKeys: ApiKeyParams[]
  authenticators: AuthenticatorParams[]
  oauthProviders: OauthProviderParams[]
}

/** What a signed sign-up creates: its root users and its wallet. */
export type SignedSignup = { rootUsers: RootUser[]; wallet?: z.infer<typeof WalletParams> | undefined }

/**
 * The sign-up message's `signupV2` (wire-formats B3; hosted v1SignupUsageV2), read by the same
 * schemas as the parameters so both sides compare after the same parse. `wallet` is Sigil's: a
 * client that names it gets exactly that wallet.
 */
const SignupUsage = z.object({
  email: z.string().optional(),
  phoneNumber: z.string().optional(),
  apiKeys: z.array(ApiKeyParams).default([]),
  authenticators: z.array(AuthenticatorParams).default([]),
  oauthProviders: z.array(OauthProviderParams).default([]),
  wallet: WalletParams.optional(),
})

const SignupMessage = z.object({ type: z.literal('USAGE_TYPE_SIGNUP'), tokenId: z.string(), signupV2: SignupUsage })

/** A list compared as a set of canonical JSON values (order is the client's business, content is not). */
function sameSet(a: unknown[], b: unknown[]): boolean {
  const x = a.map(canonicalJson).sort()
  const y = b.map(canonicalJson).sort()
  return x.length === y.length && x.every((v, i) => v === y[i])
}

const apiKeyOf = (k: ApiKeyParams) => ({ ...k, publicKey: k.publicKey.toLowerCase() })

/**
 * create_sub_organization with `verificationToken` (wire-formats B3, B6 sign-up), so
 * nobody between the client and the service (a relay) can plant a key or change what is signed up.
 * The token must be this service's, unexpired, issued in this organization or an ancestor, for the
 * root user's email or phone, and bound to a key (verify_otp with `publicKey`). A `clientSignature`
 * by that key is required, and its sign-up message must name this token and exactly what the new
 * organization will hold: the contact, every API key, passkey and OAuth identity of its one root
 * user (and its wallet, when the message names one). Anything added, removed or changed on the way
 * (a relay in the middle planting its own key) is refused, so a verified contact only ever opens an
 * organization whose credentials its owner chose. The token is not spent here: the client logs in
 * with it right after sign-up (otp_login or stamp_login with X-Stamp-Attested).
 *
 * @throws TOKEN_INVALID naming parameters.verificationToken when it is not this service's, expired, of another organization, not for the root user's contact, or not bound to a key
 * @throws INVALID_ARGUMENT naming parameters.clientSignature (or a member) when it is missing, not by the token's key, not the sign-up message of this token, names other credentials than the root user's, or does not verify; naming parameters.rootUsers when a signed sign-up has more than one root user
 */
export async function checkSignupToken(
  ctx: ActivityContext,
  token: string,
  signup: SignedSignup,
  clientSignature: ClientSignature | undefined,
): Promise<void> {
  const field = 'parameters.verificationToken'
  const fail = (description: string) => fieldError('TOKEN_INVALID', field, description)
  const v = verifyVerificationToken(token, ctx.rt.keys.verifier.publicKeyHex, { nowMs: ctx.now })
  if (!v.ok) throw fail(v.reason === 'TOKEN_EXPIRED' ? 'expired' : 'not a valid verification token of this service')
  const claims = v.claims
  if (!(await isSelfOrAncestor(ctx.tx, claims.organization_id, ctx.organizationId))) throw fail('was issued for another organization')
  if (signup.rootUsers.length !== 1)
    throw invalidField('parameters.rootUsers', 'a sign-up with a verificationToken has exactly one root user')
  const root = signup.rootUsers[0] as RootUser
  const email = root.userEmail?.toLowerCase()
  const contact = claims.verification_type === 'OTP_TYPE_SMS' ? root.userPhoneNumber : email
  if (!contact || contact !== claims.contact) throw fail("does not verify the root user's contact")

  const sigField = 'parameters.clientSignature'
  if (!clientSignature) {
    throw invalidField(sigField, 'is required with a verificationToken: the sign-up message signed by the key the token is bound to')
  }
  if (!claims.public_key) throw fail('is not bound to a public key (verify the code with publicKey), so the sign-up cannot be signed')
  const tokenKey = compressedKeyHex(claims.public_key, field)
  if (compressedKeyHex(clientSignature.publicKey, `${sigField}.publicKey`) !== tokenKey) {
    throw invalidField(`${sigField}.publicKey`, 'is not the key the verification token is bound to')
  }
  if (!verifyClientSignature({ ...clientSignature, publicKey: tokenKey })) throw invalidField(`${sigField}.signature`, 'does not verify')
  let json: unknown
  try {
    json = JSON.parse(clientSignature.message)
  } catch {
    throw invalidField(`${sigField}.message`, 'is not JSON')
  }
  const parsed = SignupMessage.safeParse(json)
  if (!parsed.success || parsed.data.tokenId !== claims.id) {
    throw invalidField(
      `${sigField}.message`,
      'must be the sign-up message {signupV2, tokenId, type:"USAGE_TYPE_SIGNUP"} for this verification token',
    )
  }
  const signed = parsed.data.signupV2
  const differs = (what: string) =>
    invalidField(`${sigField}.message`, `signs other ${what} than the sign-up holds: every credential must be the client's own`)
  if ((signed.email?.toLowerCase() ?? undefined) !== email || (signed.phoneNumber ?? undefined) !== (root.userPhoneNumber ?? undefined)) {
    throw differs('contact details')
  }
  if (!sameSet(signed.apiKeys.map(apiKeyOf), root.apiKeys.map(apiKeyOf))) throw differs('API keys')
  if (!sameSet(signed.authenticators, root.authenticators)) throw differs('passkeys')
  if (!sameSet(signed.oauthProviders, root.oauthProviders)) throw differs('OAuth providers')
  if (signed.wallet !== undefined && canonicalJson(signed.wallet) !== canonicalJson(signup.wallet ?? null)) throw differs('wallet')
}
