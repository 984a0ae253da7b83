import { fieldError, invalidField } from '../../api/errors.js'
import { encryptCredentialBundle } from '../../crypto/credentialBundle.js'
import { bytesToHex, hexToBytes } from '../../crypto/encoding.js'
import { signSessionJwt } from '../../crypto/jwt.js'
import { compressP256PublicKey, generateP256KeyPair, uncompressP256PublicKey } from '../../crypto/p256.js'
import { ancestry } from '../store/organizations.js'
import { type SessionProfileRow, sessionProfileOfAny } from '../store/sessionProfiles.js'
import { deleteApiKeysOfType, insertApiKey } from '../store/users.js'
import type { Runtime } from '../runtime.js'
import type { Transaction } from '../store/sql.js'

/** Session and delivered-key lifetime default: 15 minutes (service-interface "Limits"; B7). */
export const DEFAULT_SESSION_SECONDS = 900
/** Credential type of session keys registered by stamp_login / otp_login (B3): the client's own key. */
export const LOGIN_CREDENTIAL_TYPE = 'CREDENTIAL_TYPE_LOGIN'

/**
 * What issuing a key needs of the activity that issues it: its transaction, its clock and (for a
 * session JWT) the service's session key. Authentication sits below the activities, so it names
 * these rather than the whole activity context.
 */
export type IssuingContext = { tx: Transaction; now: number; rt: Pick<Runtime, 'keys'> }

/** `expirationSeconds` as a positive number of seconds, `fallback` (the default lifetime unless given) when absent. */
export function expirySeconds(value: string | undefined, field: string, fallback = DEFAULT_SESSION_SECONDS): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isSafeInteger(n) || n <= 0) throw invalidField(field, 'must be a positive number of seconds')
  return n
}

/** A P-256 public key (33 or 65 bytes hex) as compressed hex, or a 400 naming the field. */
export function compressedKeyHex(hex: string, field: string): string {
  let bytes: Uint8Array
  try {
    bytes = hexToBytes(hex, field)
  } catch {
    throw invalidField(field, 'must be a hex P-256 public key')
  }
  return bytesToHex(compressP256PublicKey(bytes, field))
}

/**
 * Makes a fresh P-256 API key of `credentialType` for the user, registers its public half with
 * the expiry, and returns its private half encrypted to `targetPublicKey` as a credential
 * bundle (wire-formats B2). `invalidateExisting` first deletes the user's keys of that type.
 */
export async function issueCredentialBundle(
  ctx: IssuingContext,
  o: {
    orgId: string
    userId: string
    targetPublicKey: string
    credentialType: string
    apiKeyName: string
    expirationSeconds: number
    invalidateExisting: boolean | undefined
  },
): Promise<{ apiKeyId: string; credentialBundle: string }> {
  let target: Uint8Array
  try {
    target = uncompressP256PublicKey(hexToBytes(o.targetPublicKey, 'parameters.targetPublicKey'), 'parameters.targetPublicKey')
  } catch {
    throw invalidField('parameters.targetPublicKey', 'must be a hex P-256 public key (uncompressed 04… or compressed)')
  }
  if (o.invalidateExisting) await deleteApiKeysOfType(ctx.tx, o.userId, o.credentialType)
  const kp = generateP256KeyPair()
  const apiKeyId = crypto.randomUUID()
  await insertApiKey(ctx.tx, {
    id: apiKeyId,
    orgId: o.orgId,
    userId: o.userId,
    name: o.apiKeyName,
    publicKey: bytesToHex(kp.publicKey),
    curveType: 'API_KEY_CURVE_P256',
    credentialType: o.credentialType,
    expirationSeconds: String(o.expirationSeconds),
    now: ctx.now,
  })
  try {
    const credentialBundle = await encryptCredentialBundle({ plaintext: kp.privateKey, targetPublicKeyHex: bytesToHex(target) })
    return { apiKeyId, credentialBundle }
  } finally {
    kp.privateKey.fill(0)
  }
}

/**
 * Registers the client's own public key as a LOGIN credential of the user until `exp`, and
 * returns the session JWT (wire-formats B3) signed by the service's session key.
 *
 * With `sessionProfileId` (docs "Session profiles"): the profile of the user's organization or of
 * one of its ancestors; the session lasts the shorter of `expirationSeconds` and the profile's own
 * (either alone when only one is set, 15 minutes when neither), its JWT's `session_type` is the
 * profile's name, and its key carries the profile, whose scope then decides each of its activities.
 *
 * @throws NOT_FOUND when parameters.sessionProfileId is not a profile of the user's organization or an ancestor
 */
export async function issueSession(
  ctx: IssuingContext,
  o: {
    orgId: string
    userId: string
    publicKey: string
    /** The login intent's lifetime; undefined when the intent gave none. */
    expirationSeconds: number | undefined
    invalidateExisting: boolean | undefined
    sessionProfileId?: string | undefined
  },
): Promise<string> {
  const publicKey = compressedKeyHex(o.publicKey, 'parameters.publicKey')
  let seconds = o.expirationSeconds
  let profile: SessionProfileRow | undefined
  if (o.sessionProfileId !== undefined) {
    profile = await sessionProfileOfAny(ctx.tx, await ancestry(ctx.tx, o.orgId), o.sessionProfileId)
    if (!profile) {
      throw fieldError(
        'NOT_FOUND',
        'parameters.sessionProfileId',
        "is not a session profile of the user's organization or of an organization above it",
      )
    }
    if (profile.expiration_seconds !== null) {
      const cap = Number(profile.expiration_seconds)
      seconds = seconds === undefined ? cap : Math.min(seconds, cap)
    }
  }
  seconds ??= DEFAULT_SESSION_SECONDS
  if (o.invalidateExisting) await deleteApiKeysOfType(ctx.tx, o.userId, LOGIN_CREDENTIAL_TYPE)
  const expMs = ctx.now + seconds * 1000
  await insertApiKey(ctx.tx, {
    id: crypto.randomUUID(),
    orgId: o.orgId,
    userId: o.userId,
    name: `Session - ${ctx.now}`,
    publicKey,
    curveType: 'API_KEY_CURVE_P256',
    credentialType: LOGIN_CREDENTIAL_TYPE,
    expirationSeconds: String(seconds),
    sessionProfileId: profile?.id,
    now: ctx.now,
  })
  return signSessionJwt({
    claims: {
      exp: Math.floor(expMs / 1000),
      public_key: publicKey,
      session_type: profile?.name ?? 'SESSION_TYPE_READ_WRITE',
      user_id: o.userId,
      organization_id: o.orgId,
    },
    signerPrivateKey: ctx.rt.keys.session.privateKey,
  })
}
