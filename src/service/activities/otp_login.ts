import type { z } from 'zod'
import type { otpLoginV1 } from '../../api/operations/otp_login.js'
import { SigilError, fieldError, invalidField } from '../../api/errors.js'
import { verifyClientSignature, verifyVerificationToken } from '../../crypto/jwt.js'
import { findUserByContact } from '../auth/contact.js'
import { isSelfOrAncestor } from '../store/organizations.js'
import { spendVerificationToken } from '../store/otps.js'
import { compressedKeyHex, expirySeconds, issueSession } from '../auth/sessionKeys.js'
import type { ActivityHandler } from './types.js'

type Params = z.infer<typeof otpLoginV1.parameters>

function tokenError(description: string): SigilError {
  return fieldError('TOKEN_INVALID', 'parameters.verificationToken', description)
}

/** The login message core signs (wire-formats B3): `{login:{publicKey}, tokenId, type:"USAGE_TYPE_LOGIN"}`. */
function loginMessageMatches(message: string, publicKey: string, tokenId: string): boolean {
  try {
    const m = JSON.parse(message) as { login?: { publicKey?: unknown }; tokenId?: unknown; type?: unknown }
    return (
      m.type === 'USAGE_TYPE_LOGIN' &&
      m.tokenId === tokenId &&
      typeof m.login?.publicKey === 'string' &&
      compressedKeyHex(m.login.publicKey, 'parameters.clientSignature.message') === publicKey
    )
  } catch {
    return false
  }
}

function login(requireSignature: boolean): ActivityHandler<Params> {
  return async (ctx, p) => {
    const v = verifyVerificationToken(p.verificationToken, ctx.rt.keys.verifier.publicKeyHex, { nowMs: ctx.now })
    if (!v.ok) throw tokenError(v.reason === 'TOKEN_EXPIRED' ? 'expired' : 'not a valid verification token of this service')
    const claims = v.claims
    if (!(await isSelfOrAncestor(ctx.tx, claims.organization_id, ctx.organizationId))) {
      throw tokenError('was issued for another organization')
    }
    const publicKey = compressedKeyHex(p.publicKey, 'parameters.publicKey')
    const tokenKey = claims.public_key === undefined ? undefined : compressedKeyHex(claims.public_key, 'parameters.verificationToken')
    const sig = p.clientSignature
    if (requireSignature && !sig) throw invalidField('parameters.clientSignature', 'required')
    if (sig) {
      if (!tokenKey) throw tokenError('is not bound to a public key, so a client signature cannot be checked')
      if (compressedKeyHex(sig.publicKey, 'parameters.clientSignature.publicKey') !== tokenKey) {
        throw invalidField('parameters.clientSignature.publicKey', 'is not the key the verification token is bound to')
      }
      if (!loginMessageMatches(sig.message, publicKey, claims.id)) {
        throw invalidField('parameters.clientSignature.message', 'must be the login message for this publicKey and token')
      }
      if (!verifyClientSignature({ ...sig, publicKey: tokenKey })) {
        throw invalidField('parameters.clientSignature.signature', 'does not verify')
      }
    } else if (tokenKey && tokenKey !== publicKey) {
      throw invalidField('parameters.publicKey', 'is not the key the verification token is bound to')
    }
    const user = await findUserByContact(ctx.tx, ctx.organizationId, claims.verification_type, claims.contact)
    if (!user) throw new SigilError('NOT_FOUND', 'no user with the verified contact in the organization or its sub-organizations')
    if (!(await spendVerificationToken(ctx.tx, claims.id, ctx.now))) throw tokenError('has already been used')
    const session = await issueSession(ctx, {
      orgId: user.organization_id,
      userId: user.id,
      publicKey,
      expirationSeconds: p.expirationSeconds === undefined ? undefined : expirySeconds(p.expirationSeconds, 'parameters.expirationSeconds'),
      invalidateExisting: p.invalidateExisting,
      sessionProfileId: p.sessionProfileId,
    })
    return { session }
  }
}

/**
 * otp_login V2 (service-interface §8): verification token + client signature → session JWT (B3).
 *
 * @throws TOKEN_INVALID when parameters.verificationToken is not an unexpired token of this service, was issued for an organization that is neither this one nor an ancestor, has already been used, or is not bound to a public key while a clientSignature is given
 * @throws INVALID_ARGUMENT when parameters.clientSignature is missing, its publicKey is not the token's key, its message is not the login message for parameters.publicKey and the token, or its signature does not verify; or parameters.publicKey is not a hex P-256 public key
 * @throws NOT_FOUND when no user has the verified contact in the organization or its sub-organizations
 */
export const handlerV2 = login(true)
/**
 * otp_login V1 (core): the client signature is optional.
 *
 * @throws TOKEN_INVALID when parameters.verificationToken is not an unexpired token of this service, was issued for an organization that is neither this one nor an ancestor, has already been used, or is not bound to a public key while a clientSignature is given
 * @throws INVALID_ARGUMENT when a given parameters.clientSignature has a publicKey that is not the token's key, a message that is not the login message for parameters.publicKey and the token, or a signature that does not verify; without one, when parameters.publicKey is not the key the token is bound to; or when parameters.publicKey is not a hex P-256 public key
 * @throws NOT_FOUND when no user has the verified contact in the organization or its sub-organizations
 */
export const handlerV1 = login(false)
