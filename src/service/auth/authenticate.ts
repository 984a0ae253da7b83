import { fieldError, SigilError } from '../../api/errors.js'
import { bytesToHex, hexToBytes, base64UrlDecode, utf8Decode } from '../../crypto/encoding.js'
import { compressP256PublicKey } from '../../crypto/p256.js'
import { verifySessionJwt } from '../../crypto/jwt.js'
import { parseWebauthnStamp, webauthnChallengeForBody } from '../../crypto/verifyStamp.js'
import { decodeStampHeader } from '../../crypto/stamp.js'
import { verifyDecodedStampAsync } from '../../crypto/verifyStampAsync.js'
import type { ServiceConfig } from '../config.js'
import type { Sql } from '../store/sql.js'
import { allowedOriginsOf, ancestry, organizationExists, quorumOf } from '../store/organizations.js'
import {
  apiKeysByPublicKey,
  authenticatorsByCredentialId,
  byCreatedThenId,
  getUser,
  keyUserOf,
  keySessionProfileOf,
  keyIpAllowlistsOf,
  keyMfaPoliciesOf,
  setAuthenticatorSignCount,
} from '../store/users.js'
import type { OidcVerifier } from '../oidc/verify.js'
import { attestedSignatureCheck, authenticateAttested } from './attested.js'
import { originAllowed } from './origins.js'
import type { Principal } from './principal.js'

/** Message the official SDKs map to SESSION_EXPIRED (wire-formats B5). */
export const UNKNOWN_KEY_MESSAGE = 'could not find public key in organization or its parent organization'
export const EXPIRED_KEY_MESSAGE = 'Unauthenticated desc = expired api key publicKey'

const CURVE_OF_SCHEME: Record<string, string> = {
  SIGNATURE_SCHEME_TK_API_P256: 'API_KEY_CURVE_P256',
  SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191: 'API_KEY_CURVE_SECP256K1',
  SIGNATURE_SCHEME_TK_API_ED25519: 'API_KEY_CURVE_ED25519',
}

export type AuthenticateInput = {
  /** The stamp, already checked over the raw body by {@link stampSignatureCheck}. */
  signed: SignedStamp
  rawBody: Uint8Array
  /** The body's `organizationId` (parsed after the signature check). */
  organizationId: string
  /**
   * Whether a credential of a sub-organization may be found from its parent's id
   * (create_read_write_session, stamp_login, whoami: service-interface §10, wire-formats B6).
   */
  allowDescendant: boolean
  now: number
  /** The verifier key of OTP verification tokens; given only where X-Stamp-Attested is accepted (stamp_login). */
  verifierPublicKeyHex?: string | undefined
  /** The OIDC verifier, for X-Stamp-Attested with an OIDC token (stamp_login). */
  oidc?: OidcVerifier | undefined
  /**
   * The service's session key; given only where an `X-Session` read-only session is accepted: on
   * queries. Anywhere else (every submit path) a read-only session is refused with 403.
   */
  sessionPublicKeyHex?: string | undefined
}

/** What every submit answers to a read-only session, whatever its activity type. */
export const READ_ONLY_SESSION_REFUSED = 'a read-only session cannot submit activities'

export type Authenticated = {
  principal: Principal
  /** The organization the request acts in: the request's, or the sub-organization found below it. */
  effectiveOrganizationId: string
}

export type SignedStamp = Awaited<ReturnType<typeof stampSignatureCheck>>

/**
 * Which stamp header a request carries, its signature verified over the raw body before
 * anything is parsed (A4). WebAuthn stamps are verified against the stored passkey later.
 */
export async function stampSignatureCheck(headers: { get(name: string): string | null | undefined }, rawBody: Uint8Array) {
  const xStamp = headers.get('x-stamp')
  const webauthn = headers.get('x-stamp-webauthn')
  const attested = headers.get('x-stamp-attested')
  if (xStamp) {
    const decoded = decodeStampHeader(xStamp)
    if (!decoded.ok) throw stampError(decoded.reason)
    const check = await verifyDecodedStampAsync(decoded.stamp, rawBody)
    if (!check.ok) throw stampError(check.reason)
    return { kind: 'API_KEY' as const, check, signature: decoded.stamp.signature }
  }
  if (webauthn) {
    const parsed = parseWebauthnStamp(webauthn)
    if (!parsed.ok) throw stampError(parsed.reason)
    return { kind: 'WEBAUTHN' as const, stamp: parsed.stamp }
  }
  if (attested) {
    // Over the raw body, before parsing: the bytes signed are the bytes run. Authentication reads this parsed stamp.
    return { kind: 'ATTESTED' as const, stamp: attestedSignatureCheck(attested, rawBody) }
  }
  // A read-only session (create_read_only_session) is a bearer token: it signs nothing, a stamp wins over it.
  const session = headers.get('x-session')
  if (session) return { kind: 'SESSION' as const, token: session }
  throw new SigilError('STAMP_MISSING', 'request is not stamped: send X-Stamp, X-Stamp-Webauthn, X-Stamp-Attested or X-Session')
}

function stampError(reason: string): SigilError {
  switch (reason) {
    case 'STAMP_SCHEME_UNSUPPORTED':
      return new SigilError('STAMP_SCHEME_UNSUPPORTED', 'stamp scheme is not supported')
    case 'STAMP_SIGNATURE_INVALID':
      return new SigilError('STAMP_SIGNATURE_INVALID', 'stamp signature does not verify over the request body')
    default:
      return new SigilError('STAMP_MALFORMED', 'stamp header is malformed')
  }
}

/**
 * Picks, among rows found for a credential, the one in the request org or its nearest ancestor;
 * else (descendant lookups) the first of `rows` below it. Rows come oldest first: credential ids
 * and public keys are public material that anyone can register again in their own sub-organization
 * (a "none" attestation signs nothing), and such a later copy must never capture the original's logins.
 */
async function pickByOrganization<T extends { organization_id: string }>(
  sql: Sql,
  rows: T[],
  organizationId: string,
  allowDescendant: boolean,
): Promise<{ row: T; effectiveOrganizationId: string } | { denied: true; row: T } | undefined> {
  if (rows.length === 0) return undefined
  const up = await ancestry(sql, organizationId)
  let best: { row: T; depth: number } | undefined
  for (const row of rows) {
    const depth = up.indexOf(row.organization_id)
    if (depth >= 0 && (!best || depth < best.depth)) best = { row, depth }
  }
  if (best) return { row: best.row, effectiveOrganizationId: organizationId }
  // The credential lives below the request's organization.
  for (const row of rows) {
    const chain = await ancestry(sql, row.organization_id)
    if (chain.includes(organizationId)) {
      return allowDescendant ? { row, effectiveOrganizationId: row.organization_id } : { denied: true, row }
    }
  }
  return undefined
}

const organizationNotFound = (id: string) => fieldError('NOT_FOUND', 'organizationId', `organization ${id} not found`)

/**
 * A credential of an ancestor acting on a sub-organization: the sub-organization must not have
 * been deleted (delete_sub_organization), which the ancestry cache of this instance may not know
 * when another instance deleted it, so the database is asked. A credential of the organization
 * itself needs no such read: deleting an organization deletes its users and their credentials.
 */
async function requireLiveTarget(sql: Sql, credentialOrgId: string, targetOrgId: string): Promise<void> {
  if (credentialOrgId !== targetOrgId && !(await organizationExists(sql, targetOrgId))) throw organizationNotFound(targetOrgId)
}

/**
 * Authenticates a request (wire-formats A4): the stamp's key or passkey must belong to a
 * user of the request's organization or of one of its ancestors. Throws a SigilError.
 */
export async function authenticate(sql: Sql, config: ServiceConfig, input: AuthenticateInput): Promise<Authenticated> {
  const { signed } = input
  // Before anything else: a read-only session never writes, valid or not.
  if (signed.kind === 'SESSION' && !input.sessionPublicKeyHex) throw new SigilError('PERMISSION_DENIED', READ_ONLY_SESSION_REFUSED)
  if ((await ancestry(sql, input.organizationId)).length === 0) throw organizationNotFound(input.organizationId)

  if (signed.kind === 'API_KEY') {
    const { check } = signed
    let publicKey = check.publicKey.toLowerCase()
    if (check.scheme === 'SIGNATURE_SCHEME_TK_API_P256' && publicKey.length === 130) {
      publicKey = bytesToHex(compressP256PublicKey(hexToBytes(publicKey)))
    }
    // Oldest first: a later copy of the same public key in another sub-organization never wins (see pickByOrganization).
    // The quorum of each key's organization comes in the same statement (the engine needs it).
    const rows = byCreatedThenId(await apiKeysByPublicKey(sql, publicKey)).filter((r) => r.curve_type === CURVE_OF_SCHEME[check.scheme])
    const picked = await pickByOrganization(sql, rows, input.organizationId, input.allowDescendant)
    if (!picked) throw new SigilError('STAMP_KEY_UNKNOWN', UNKNOWN_KEY_MESSAGE)
    if ('denied' in picked) {
      throw new SigilError('PERMISSION_DENIED', 'a sub-organization credential cannot act on its parent organization')
    }
    const key = picked.row
    await requireLiveTarget(sql, key.organization_id, input.organizationId)
    if (key.expires_at !== null && Number(key.expires_at) <= input.now) {
      throw new SigilError('STAMP_KEY_EXPIRED', `${EXPIRED_KEY_MESSAGE}: ${publicKey}`)
    }
    return {
      principal: {
        userId: key.user_id,
        organizationId: key.organization_id,
        credentialKind: 'API_KEY',
        credentialId: key.id,
        credentialType: key.credential_type,
        publicKey,
        scheme: check.scheme,
        signature: signed.signature,
        quorum: quorumOf(key),
        policiesVersion: key.policies_version ?? undefined,
        user: keyUserOf(key),
        sessionScope: keySessionProfileOf(key),
        ipAllowlists: keyIpAllowlistsOf(key),
        mfaPolicies: keyMfaPoliciesOf(key),
      },
      effectiveOrganizationId: picked.effectiveOrganizationId,
    }
  }

  if (signed.kind === 'WEBAUTHN') {
    const stamp = signed.stamp
    const rows = byCreatedThenId(await authenticatorsByCredentialId(sql, stamp.credentialId))
    const picked = await pickByOrganization(sql, rows, input.organizationId, input.allowDescendant)
    if (!picked) throw new SigilError('STAMP_KEY_UNKNOWN', UNKNOWN_KEY_MESSAGE)
    // Credential ids are public: verify the assertion before telling a denial (403) from a bad stamp (401).
    const auth = picked.row
    await requireLiveTarget(sql, auth.organization_id, input.organizationId)
    let origin: string
    try {
      origin = (JSON.parse(utf8Decode(base64UrlDecode(stamp.clientDataJson))) as { origin?: unknown }).origin as string
    } catch {
      throw new SigilError('STAMP_MALFORMED', 'X-Stamp-Webauthn clientDataJson is not JSON')
    }
    const orgOrigins = await allowedOriginsFor(sql, auth.organization_id)
    if (typeof origin !== 'string' || !originAllowed(origin, [...config.allowedOrigins, ...orgOrigins])) {
      throw new SigilError('WEBAUTHN_INVALID', 'webauthn origin is not allowed')
    }
    // @simplewebauthn/server (with its X.509 and ASN.1 stack) loads at the first passkey, not at start.
    const { verifyAuthenticationResponse } = await import('@simplewebauthn/server')
    let verification
    try {
      verification = await verifyAuthenticationResponse({
        response: {
          id: stamp.credentialId,
          rawId: stamp.credentialId,
          type: 'public-key',
          response: {
            authenticatorData: stamp.authenticatorData,
            clientDataJSON: stamp.clientDataJson,
            signature: stamp.signature,
          },
          clientExtensionResults: {},
        },
        expectedChallenge: webauthnChallengeForBody(input.rawBody),
        expectedOrigin: origin,
        expectedRPID: [...config.rpIds, ...rpIdsFromOrigins(orgOrigins)],
        credential: { id: auth.credential_id, publicKey: Uint8Array.from(hexToBytes(auth.public_key)), counter: Number(auth.sign_count) },
        requireUserVerification: false,
      })
    } catch (e) {
      throw new SigilError('WEBAUTHN_INVALID', `webauthn stamp rejected: ${(e as Error).message}`)
    }
    if (!verification.verified) throw new SigilError('WEBAUTHN_INVALID', 'webauthn stamp rejected')
    await setAuthenticatorSignCount(sql, auth.id, verification.authenticationInfo.newCounter, input.now)
    if ('denied' in picked) {
      throw new SigilError('PERMISSION_DENIED', 'a sub-organization credential cannot act on its parent organization')
    }
    return {
      principal: {
        userId: auth.user_id,
        organizationId: auth.organization_id,
        credentialKind: 'WEBAUTHN',
        credentialId: auth.id,
        publicKey: auth.public_key,
        scheme: 'SIGNATURE_SCHEME_TK_WEBAUTHN',
        signature: stamp.signature,
        quorum: quorumOf(auth),
        policiesVersion: auth.policies_version ?? undefined,
      },
      effectiveOrganizationId: picked.effectiveOrganizationId,
    }
  }

  if (signed.kind === 'SESSION' && input.sessionPublicKeyHex) {
    return authenticateReadOnlySession(sql, signed.token, { ...input, sessionPublicKeyHex: input.sessionPublicKeyHex })
  }

  if (signed.kind === 'ATTESTED' && input.verifierPublicKeyHex) {
    return authenticateAttested(sql, signed.stamp, { ...input, verifierPublicKeyHex: input.verifierPublicKeyHex })
  }
  throw new SigilError('STAMP_SCHEME_UNSUPPORTED', 'X-Stamp-Attested is accepted only on stamp_login')
}

/**
 * Resolves an `X-Session` read-only session (create_read_only_session): a session JWT signed by the
 * service's session key, unexpired, of `session_type` SESSION_TYPE_READ_ONLY (a read-write session
 * JWT only tells the client its own key: it is no credential), whose user still exists. Like a
 * credential, it reads its user's organization and the sub-organizations below it.
 */
async function authenticateReadOnlySession(
  sql: Sql,
  token: string,
  input: AuthenticateInput & { sessionPublicKeyHex: string },
): Promise<Authenticated> {
  const verified = verifySessionJwt(token, input.sessionPublicKeyHex, { nowMs: input.now })
  if (!verified.ok) {
    if (verified.reason === 'TOKEN_EXPIRED') throw new SigilError('STAMP_KEY_EXPIRED', 'X-Session: the read-only session has expired')
    throw new SigilError('TOKEN_INVALID', 'X-Session: not a valid session')
  }
  const claims = verified.claims
  if (claims.session_type !== 'SESSION_TYPE_READ_ONLY') {
    throw new SigilError('TOKEN_INVALID', 'X-Session: only a read-only session (SESSION_TYPE_READ_ONLY) is accepted')
  }
  const user = await getUser(sql, claims.organization_id, claims.user_id)
  if (!user) throw new SigilError('STAMP_KEY_UNKNOWN', "X-Session: the session's user no longer exists")
  const picked = await pickByOrganization(sql, [{ organization_id: claims.organization_id }], input.organizationId, input.allowDescendant)
  if (!picked || 'denied' in picked) {
    throw new SigilError('PERMISSION_DENIED', "X-Session: the session's user cannot read this organization")
  }
  await requireLiveTarget(sql, claims.organization_id, input.organizationId)
  return {
    principal: {
      userId: user.id,
      organizationId: claims.organization_id,
      credentialKind: 'READ_ONLY_SESSION',
      credentialId: '',
      publicKey: claims.public_key,
      scheme: 'SESSION_TYPE_READ_ONLY',
      signature: '',
    },
    effectiveOrganizationId: picked.effectiveOrganizationId,
  }
}

/** Origins an organization (or any ancestor) allowed with update_allowed_origins. */
export async function allowedOriginsFor(sql: Sql, organizationId: string): Promise<string[]> {
  return allowedOriginsOf(sql, await ancestry(sql, organizationId))
}

function rpIdsFromOrigins(origins: string[]): string[] {
  const out: string[] = []
  for (const o of origins) {
    try {
      const u = new URL(o)
      // URL.origin is "null" for chrome-extension: URLs; Chromium's RP ID is the full origin string.
      out.push(u.protocol === 'chrome-extension:' ? `${u.protocol}//${u.host}` : u.hostname)
    } catch {
      // ignored: not a URL
    }
  }
  return out
}
