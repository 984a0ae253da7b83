/**
 * The sign-up client signature (wire-formats B3 `clientSignature`): the temporary key K1 the
 * verification token is bound to signs `{signupV2:{…}, tokenId, type:"USAGE_TYPE_SIGNUP"}`
 * (raw r||s, ECDSA P-256 over SHA-256), so the token is useless without K1.
 */
import { p256 } from '@noble/curves/nist.js'
import type { ApiKeyParams, AuthenticatorParams, ClientSignature } from '../../api/common'
import { bytesToHex, utf8Encode } from '../../crypto/encoding'
import { CLIENT_SIGNATURE_SCHEME, decodeJwtPayload } from '../../crypto/jwt'
import { ExtensionError } from './failures'

/** Compressed SEC1 hex of a WebCrypto P-256 public key (public keys are always exportable). */
export async function compressedPublicKeyHex(publicKey: CryptoKey): Promise<string> {
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', publicKey))
  return bytesToHex(p256.Point.fromBytes(raw).toBytes(true))
}

/**
 * The client signature for a sign-up with `token`, or `undefined` when the token is not bound
 * to a key (a relay without `publicKey` support). Throws when it is bound to another key.
 */
export async function signupClientSignature(
  key: { privateKey: CryptoKey; publicKeyHex: string },
  token: string,
  signupV2: { apiKeys: ApiKeyParams[]; authenticators: AuthenticatorParams[]; email: string },
): Promise<ClientSignature | undefined> {
  const claims = decodeJwtPayload(token)
  if (!claims || claims.public_key === undefined) return undefined
  if (typeof claims.id !== 'string' || String(claims.public_key).toLowerCase() !== key.publicKeyHex.toLowerCase()) {
    throw new ExtensionError('REQUEST_FAILED', 'The email verification belongs to another key. Please verify the email again.')
  }
  const message = JSON.stringify({ signupV2, tokenId: claims.id, type: 'USAGE_TYPE_SIGNUP' })
  const signature = new Uint8Array(
    await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key.privateKey, utf8Encode(message) as Uint8Array<ArrayBuffer>),
  )
  return { publicKey: key.publicKeyHex, scheme: CLIENT_SIGNATURE_SCHEME, message, signature: bytesToHex(signature) }
}
