import type { ClientSignature } from '../../../api/common.js'
import { fieldError, invalidField } from '../../../api/errors.js'
import { verifyClientSignature, verifyVerificationToken } from '../../../crypto/jwt.js'
import { isSelfOrAncestor } from '../../store/organizations.js'
import type { ActivityContext } from '../types.js'
import { compressedKeyHex } from './sessionKeys.js'

type RootContact = { userEmail?: string | undefined; userPhoneNumber?: string | undefined }

/**
 * create_sub_organization with `verificationToken` (wire-formats B3, B6 sign-up): the token
 * must be this service's, unexpired, issued in this organization or an ancestor, for the
 * first root user's email or phone; a `clientSignature` must be the sign-up message for that
 * token, signed by the key the token is bound to. The token is not spent here: core logs in
 * with the same token right after sign-up (stamp_login, X-Stamp-Attested).
 */
export async function checkSignupToken(
  ctx: ActivityContext,
  token: string,
  rootUser: RootContact | undefined,
  clientSignature: ClientSignature | undefined,
): Promise<void> {
  const field = 'parameters.verificationToken'
  const fail = (description: string) => fieldError('TOKEN_INVALID', field, description)
  const v = verifyVerificationToken(token, ctx.rt.keys.verifier.publicKeyHex, { nowMs: ctx.now })
  if (!v.ok) throw fail(v.reason === 'TOKEN_EXPIRED' ? 'expired' : 'not a valid verification token of this service')
  const claims = v.claims
  if (!(await isSelfOrAncestor(ctx.tx, claims.organization_id, ctx.organizationId))) throw fail('was issued for another organization')
  const contact = claims.verification_type === 'OTP_TYPE_SMS' ? rootUser?.userPhoneNumber : rootUser?.userEmail?.toLowerCase()
  if (!contact || contact !== claims.contact) throw fail("does not verify the root user's contact")
  if (!clientSignature) return
  const sigField = 'parameters.clientSignature'
  if (!claims.public_key) throw fail('is not bound to a public key, so a client signature cannot be checked')
  const tokenKey = compressedKeyHex(claims.public_key, field)
  if (compressedKeyHex(clientSignature.publicKey, `${sigField}.publicKey`) !== tokenKey) {
    throw invalidField(`${sigField}.publicKey`, 'is not the key the verification token is bound to')
  }
  let message: { tokenId?: unknown; type?: unknown }
  try {
    message = JSON.parse(clientSignature.message) as typeof message
  } catch {
    throw invalidField(`${sigField}.message`, 'is not JSON')
  }
  if (message.type !== 'USAGE_TYPE_SIGNUP' || message.tokenId !== claims.id) {
    throw invalidField(`${sigField}.message`, 'must be the sign-up message for this verification token')
  }
  if (!verifyClientSignature({ ...clientSignature, publicKey: tokenKey })) {
    throw invalidField(`${sigField}.signature`, 'does not verify')
  }
}
