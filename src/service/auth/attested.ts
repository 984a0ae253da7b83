/**
 * `X-Stamp-Attested` (wire-formats B1.4), accepted on stamp_login: a stamp whose key is vouched for
 * by an attestation (an OTP verification token, or an OIDC ID token whose nonce binds the key)
 * instead of a stored credential. The header is parsed and its signature verified once, over the
 * raw body before the body is parsed ({@link attestedSignatureCheck}); authentication then reads
 * the attestation of that same parsed stamp.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { SigilError } from '../../api/errors.js'
import { bytesToHex, utf8Encode } from '../../crypto/encoding.js'
import { verifyVerificationToken } from '../../crypto/jwt.js'
import { type AttestedStamp, parseAttestedStamp, verifyAttestedStampSignature } from '../../crypto/verifyStamp.js'
import type { OidcVerifier, VerifiedIdToken } from '../oidc/verify.js'
import { findUserByContact } from './contact.js'
import { findUserInTreeByOauthIdentity } from '../store/oauthProviders.js'
import { isSelfOrAncestor } from '../store/organizations.js'
import type { Sql } from '../store/sql.js'
import { acceptedNonces } from './nonces.js'
import type { Principal } from './principal.js'
import { compressedKeyHex } from './sessionKeys.js'

/**
 * Parses an `X-Stamp-Attested` header and checks its signature over the raw body (B1.4): the
 * stamp returned is the one authentication reads, so neither is done again.
 *
 * @throws STAMP_MALFORMED, STAMP_SCHEME_UNSUPPORTED or STAMP_SIGNATURE_INVALID
 */
export function attestedSignatureCheck(header: string, rawBody: Uint8Array): AttestedStamp {
  const parsed = parseAttestedStamp(header)
  if (!parsed.ok) {
    throw new SigilError(
      parsed.reason,
      parsed.reason === 'STAMP_MALFORMED' ? 'X-Stamp-Attested is malformed' : 'X-Stamp-Attested scheme is not supported',
    )
  }
  const sig = verifyAttestedStampSignature(parsed.stamp, rawBody)
  if (!sig.ok) {
    throw new SigilError(
      sig.reason,
      sig.reason === 'STAMP_MALFORMED' ? 'X-Stamp-Attested is malformed' : 'stamp signature does not verify over the request body',
    )
  }
  return parsed.stamp
}

/**
 * Resolves an `X-Stamp-Attested` stamp (wire-formats B1.4) on stamp_login, its signature over the
 * raw body by `publicKey` already checked by {@link attestedSignatureCheck}: the verification token
 * signed by the service's verifier key, unexpired, issued in the request organization or an
 * ancestor, bound to that same `publicKey`; the principal is the user with the token's contact in
 * the request organization or its sub-organizations.
 */
export async function authenticateAttested(
  sql: Sql,
  stamp: AttestedStamp,
  input: { organizationId: string; now: number; verifierPublicKeyHex: string; oidc?: OidcVerifier | undefined },
): Promise<{ principal: Principal; effectiveOrganizationId: string }> {
  if (stamp.scheme === 'STAMP_ATTESTED_SCHEME_P256_OIDC' && input.oidc)
    return authenticateOidc(sql, stamp, input.oidc, input.organizationId)
  if (stamp.scheme !== 'STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN') {
    throw new SigilError('STAMP_SCHEME_UNSUPPORTED', 'X-Stamp-Attested: this scheme is not supported here')
  }
  const token = verifyVerificationToken(stamp.publicKeyAttestation, input.verifierPublicKeyHex, { nowMs: input.now })
  if (!token.ok) {
    throw new SigilError(
      'TOKEN_INVALID',
      `X-Stamp-Attested: verification token ${token.reason === 'TOKEN_EXPIRED' ? 'has expired' : 'is not valid'}`,
    )
  }
  const claims = token.claims
  let stampKey: string
  let tokenKey: string | undefined
  try {
    stampKey = compressedKeyHex(stamp.publicKey, 'publicKey')
    tokenKey = claims.public_key === undefined ? undefined : compressedKeyHex(claims.public_key, 'public_key')
  } catch {
    throw new SigilError('STAMP_MALFORMED', 'X-Stamp-Attested: public key is not a P-256 key')
  }
  if (tokenKey !== stampKey) throw new SigilError('TOKEN_INVALID', 'X-Stamp-Attested: the token is not bound to the stamp key')
  if (!(await isSelfOrAncestor(sql, claims.organization_id, input.organizationId))) {
    throw new SigilError('TOKEN_INVALID', 'X-Stamp-Attested: the token was issued for another organization')
  }
  const user = await findUserByContact(sql, input.organizationId, claims.verification_type, claims.contact)
  if (!user)
    throw new SigilError(
      'STAMP_KEY_UNKNOWN',
      'X-Stamp-Attested: no user with the verified contact in the organization or its sub-organizations',
    )
  return {
    principal: {
      userId: user.id,
      organizationId: user.organization_id,
      credentialKind: 'ATTESTED',
      credentialId: claims.id,
      publicKey: stampKey,
      scheme: stamp.scheme,
      signature: stamp.signature,
    },
    effectiveOrganizationId: user.organization_id,
  }
}

/**
 * What stamp_login spends of an OIDC attestation (single use, so a captured token cannot log in
 * again): the token itself, never the identity it names, so each fresh token logs its user in once
 * and a replayed one is refused. Its issuer's `jti` when it has one (a re-encoding of the same token is the same token),
 * else sha256 of the token; hashed, so no token text is stored.
 */
function oidcTokenUseId(t: VerifiedIdToken, token: string): string {
  return t.jti !== undefined
    ? `oidc-jti:${bytesToHex(sha256(utf8Encode(`${t.iss} ${t.jti}`)))}`
    : `oidc-token:${bytesToHex(sha256(utf8Encode(token)))}`
}

/**
 * `STAMP_ATTESTED_SCHEME_P256_OIDC` (B1.4): the attestation is an OIDC ID token of a trusted
 * issuer whose nonce is sha256 of the stamp's public key (the key that signed the body); the principal
 * is the user holding the token's identity in the request organization or its sub-organizations.
 */
async function authenticateOidc(
  sql: Sql,
  stamp: { publicKeyAttestation: string; publicKey: string; scheme: string; signature: string },
  oidc: OidcVerifier,
  organizationId: string,
): Promise<{ principal: Principal; effectiveOrganizationId: string }> {
  let stampKey: string
  let nonces: string[]
  try {
    stampKey = compressedKeyHex(stamp.publicKey, 'publicKey')
    nonces = acceptedNonces(stamp.publicKey, 'publicKey')
  } catch {
    throw new SigilError('STAMP_MALFORMED', 'X-Stamp-Attested: public key is not a P-256 key')
  }
  const t = await oidc.verify(stamp.publicKeyAttestation, { field: 'X-Stamp-Attested.publicKeyAttestation', nonce: nonces })
  const user = await findUserInTreeByOauthIdentity(sql, organizationId, t)
  if (!user) {
    throw new SigilError(
      'STAMP_KEY_UNKNOWN',
      'X-Stamp-Attested: no user with this OAuth identity in the organization or its sub-organizations',
    )
  }
  return {
    principal: {
      userId: user.id,
      organizationId: user.organization_id,
      credentialKind: 'ATTESTED',
      credentialId: oidcTokenUseId(t, stamp.publicKeyAttestation),
      publicKey: stampKey,
      scheme: stamp.scheme,
      signature: stamp.signature,
    },
    effectiveOrganizationId: user.organization_id,
  }
}
