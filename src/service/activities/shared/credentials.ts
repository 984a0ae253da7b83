import { ed25519 } from '@noble/curves/ed25519.js'
import { p256 } from '@noble/curves/nist.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import type { ApiKeyParams, AuthenticatorParams } from '../../../api/common.js'
import { SigilError, invalidField } from '../../../api/errors.js'
import { base64UrlDecode, bytesToHex, hexToBytes, utf8Decode } from '../../../crypto/encoding.js'
import { allowedOriginsFor } from '../../auth/authenticate.js'
import { originAllowed } from '../../auth/origins.js'
import { authenticatorCredentialExists, insertApiKey, insertAuthenticator } from '../../store/users.js'
import { deferring } from '../../store/transactions.js'
import type { ActivityContext } from '../../activityContext.js'

const CREDENTIAL_TYPE_OF_CURVE: Record<string, string> = {
  API_KEY_CURVE_P256: 'CREDENTIAL_TYPE_API_KEY_P256',
  API_KEY_CURVE_SECP256K1: 'CREDENTIAL_TYPE_API_KEY_SECP256K1',
  API_KEY_CURVE_ED25519: 'CREDENTIAL_TYPE_API_KEY_ED25519',
}

/**
 * Checks an API public key for its curve and returns it normalised (lowercase hex;
 * EC keys compressed, as stamps carry them).
 */
export function normaliseApiPublicKey(publicKey: string, curveType: string, field: string): string {
  let bytes: Uint8Array
  try {
    bytes = hexToBytes(publicKey, field)
  } catch {
    throw invalidField(field, 'must be a hex public key')
  }
  try {
    if (curveType === 'API_KEY_CURVE_ED25519') {
      if (bytes.length !== 32) throw new Error('length')
      ed25519.Point.fromBytes(bytes)
      return bytesToHex(bytes)
    }
    const curve = curveType === 'API_KEY_CURVE_SECP256K1' ? secp256k1 : p256
    return bytesToHex(curve.Point.fromBytes(bytes).toBytes(true))
  } catch {
    throw invalidField(field, `is not a valid ${curveType.replace('API_KEY_CURVE_', '')} public key`)
  }
}

/** Registers one API key for a user (create_api_keys, create_users, create_sub_organization). */
export async function registerApiKey(
  ctx: ActivityContext,
  orgId: string,
  userId: string,
  key: ApiKeyParams,
  field: string,
  credentialType?: string,
): Promise<string> {
  const publicKey = normaliseApiPublicKey(key.publicKey, key.curveType, `${field}.publicKey`)
  if (!key.apiKeyName) throw invalidField(`${field}.apiKeyName`, 'required')
  if (key.expirationSeconds !== undefined && !Number.isSafeInteger(Number(key.expirationSeconds))) {
    throw invalidField(`${field}.expirationSeconds`, 'is too large')
  }
  const id = crypto.randomUUID()
  // Held back and sent with the next statement (Transaction.defer).
  await insertApiKey(deferring(ctx.tx), {
    id,
    orgId,
    userId,
    name: key.apiKeyName,
    publicKey,
    curveType: key.curveType,
    credentialType: credentialType ?? CREDENTIAL_TYPE_OF_CURVE[key.curveType]!,
    expirationSeconds: key.expirationSeconds,
    now: ctx.now,
  })
  return id
}

/**
 * Verifies a WebAuthn attestation (create_authenticators V2, sub-organization root users,
 * recovery) with @simplewebauthn/server and registers the passkey.
 */
export async function registerAuthenticator(
  ctx: ActivityContext,
  orgId: string,
  userId: string,
  a: AuthenticatorParams,
  field: string,
): Promise<string> {
  let origin: unknown
  try {
    origin = (JSON.parse(utf8Decode(base64UrlDecode(a.attestation.clientDataJson))) as { origin?: unknown }).origin
  } catch {
    throw invalidField(`${field}.attestation.clientDataJson`, 'is not base64url JSON')
  }
  const orgOrigins = await allowedOriginsFor(ctx.tx, orgId)
  if (typeof origin !== 'string' || !originAllowed(origin, [...ctx.rt.config.allowedOrigins, ...orgOrigins])) {
    throw invalidField(`${field}.attestation.clientDataJson`, 'origin is not an allowed origin')
  }
  // @simplewebauthn/server (with its X.509 and ASN.1 stack) loads at the first passkey, not at start.
  const { verifyRegistrationResponse } = await import('@simplewebauthn/server')
  let verified
  try {
    verified = await verifyRegistrationResponse({
      response: {
        id: a.attestation.credentialId,
        rawId: a.attestation.credentialId,
        type: 'public-key',
        response: {
          clientDataJSON: a.attestation.clientDataJson,
          attestationObject: a.attestation.attestationObject,
        },
        clientExtensionResults: {},
      },
      expectedChallenge: a.challenge,
      expectedOrigin: origin,
      expectedRPID: [...ctx.rt.config.rpIds, ...orgOrigins.map(rpIdOf)],
      requireUserVerification: false,
    })
  } catch (e) {
    throw invalidField(`${field}.attestation`, `attestation rejected: ${(e as Error).message}`)
  }
  if (!verified.verified || !verified.registrationInfo) {
    throw invalidField(`${field}.attestation`, 'attestation did not verify')
  }
  const info = verified.registrationInfo
  // "none" attestation signs nothing: make sure a P-256 key is a point on the curve before storing it.
  if (!(await validP256CoseKey(info.credential.publicKey))) {
    throw invalidField(`${field}.attestation.attestationObject`, 'credential public key is not a valid P-256 point')
  }
  const credentialId = info.credential.id
  // Credential ids are unique per authenticator: a second registration anywhere is a copy
  // (a "none" attestation proves nothing), so it is refused across all organizations.
  if (await authenticatorCredentialExists(ctx.tx, credentialId)) {
    throw new SigilError('ALREADY_EXISTS', `${field}: this passkey is already registered`)
  }
  const id = crypto.randomUUID()
  await insertAuthenticator(ctx.tx, {
    id,
    orgId,
    userId,
    name: a.authenticatorName || 'Passkey',
    credentialId,
    publicKeyHex: bytesToHex(info.credential.publicKey),
    signCount: info.credential.counter,
    transports: a.attestation.transports,
    aaguid: info.aaguid,
    attestationType: info.fmt,
    now: ctx.now,
  })
  return id
}

/** False for an EC2 P-256 COSE key whose x/y is not a curve point; other key types pass through. */
async function validP256CoseKey(coseKey: Uint8Array): Promise<boolean> {
  const { cose, decodeCredentialPublicKey } = await import('@simplewebauthn/server/helpers')
  try {
    const key = decodeCredentialPublicKey(Uint8Array.from(coseKey))
    if (key.get(cose.COSEKEYS.kty) !== cose.COSEKTY.EC2 || !cose.isCOSEPublicKeyEC2(key)) return true
    if (key.get(cose.COSEKEYS.crv) !== cose.COSECRV.P256) return true
    const x = key.get(cose.COSEKEYS.x)
    const y = key.get(cose.COSEKEYS.y)
    if (!x || !y || x.length !== 32 || y.length !== 32) return false
    p256.Point.fromBytes(Uint8Array.of(0x04, ...x, ...y)).assertValidity()
    return true
  } catch {
    return false
  }
}

function rpIdOf(origin: string): string {
  try {
    const u = new URL(origin)
    // URL.origin is "null" for chrome-extension: URLs; Chromium's RP ID is the full origin string.
    return u.protocol === 'chrome-extension:' ? `${u.protocol}//${u.host}` : u.hostname
  } catch {
    return origin
  }
}
