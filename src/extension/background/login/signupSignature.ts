/**
 * Client signatures (wire-formats B3 `clientSignature`): the key a verification token is
 * bound to signs a usage message naming the token's id — the sign-up
 * `{signupV2:{…}, tokenId, type:"USAGE_TYPE_SIGNUP"}` or the login
 * `{login:{publicKey}, tokenId, type:"USAGE_TYPE_LOGIN"}` — raw r||s, ECDSA P-256 over
 * SHA-256, so the token is useless without that key.
 */
import { p256 } from '@noble/curves/nist.js'
import type { ApiKeyParams, AuthenticatorParams, ClientSignature } from '../../../api/common'
import type { WalletParams } from '../../../api/operations/create_sub_organization'
import { bytesToHex, utf8Encode } from '../../../crypto/encoding'
import { CLIENT_SIGNATURE_SCHEME } from '../../../crypto/jwt'

/** Compressed SEC1 hex of a WebCrypto P-256 public key (public keys are always exportable). */
export async function compressedPublicKeyHex(publicKey: CryptoKey): Promise<string> {
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', publicKey))
  return bytesToHex(p256.Point.fromBytes(raw).toBytes(true))
}

/** Sign `message` with `key` as a client signature. */
export async function signClientMessage(key: { privateKey: CryptoKey; publicKeyHex: string }, message: string): Promise<ClientSignature> {
  const signature = new Uint8Array(
    await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key.privateKey, utf8Encode(message) as Uint8Array<ArrayBuffer>),
  )
  return { publicKey: key.publicKeyHex, scheme: CLIENT_SIGNATURE_SCHEME, message, signature: bytesToHex(signature) }
}

/**
 * The sign-up client signature for the (verified) token `tokenId`: it names every credential and the
 * wallet the new account will hold, and the service refuses a sign-up that holds anything else.
 */
export function signupClientSignature(
  key: { privateKey: CryptoKey; publicKeyHex: string },
  tokenId: string,
  signupV2: {
    apiKeys: ApiKeyParams[]
    authenticators: AuthenticatorParams[]
    email?: string
    phoneNumber?: string
    /** Sigil's member: the service then creates exactly this wallet. */
    wallet?: WalletParams
  },
): Promise<ClientSignature> {
  return signClientMessage(key, JSON.stringify({ signupV2, tokenId, type: 'USAGE_TYPE_SIGNUP' }))
}

/** The login client signature for `publicKeyHex` and the (verified) token `tokenId`. */
export function loginClientSignature(key: { privateKey: CryptoKey; publicKeyHex: string }, tokenId: string): Promise<ClientSignature> {
  return signClientMessage(key, JSON.stringify({ login: { publicKey: key.publicKeyHex }, tokenId, type: 'USAGE_TYPE_LOGIN' }))
}
