/**
 * The nonce that binds an OIDC ID token to a client key (the hosted service's social-login rule):
 * lower-case hex of SHA-256 over the UTF-8 bytes of the public key's hex string, exactly as the
 * client sends that key (`targetPublicKey` of OAUTH, `publicKey` of OAUTH_LOGIN).
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8Encode } from './encoding.js'

/** `hex(sha256(utf8(publicKeyHex)))`. @example oidcNonce('02ab…') → '5f1c…' (64 hex characters) */
export function oidcNonce(publicKeyHex: string): string {
  return bytesToHex(sha256(utf8Encode(publicKeyHex)))
}
