import { SigilError, invalidField } from '../../../api/errors.js'
import { bytesToHex, hexToBytes } from '../../../crypto/encoding.js'
import { oidcNonce } from '../../../crypto/oidcNonce.js'
import { compressP256PublicKey, uncompressP256PublicKey } from '../../../crypto/p256.js'
import { findUserInTreeByOauthIdentity } from '../../store/oauthProviders.js'
import type { UserRow } from '../../store/users.js'
import type { ActivityContext } from '../types.js'

/**
 * The nonces that bind a token to `publicKeyHex`: sha256 of the key as sent, and of its compressed
 * and uncompressed spellings (one key, whichever form the client hashed).
 */
export function acceptedNonces(publicKeyHex: string, field: string): string[] {
  let bytes: Uint8Array
  try {
    bytes = hexToBytes(publicKeyHex, field)
  } catch {
    throw invalidField(field, 'must be a hex P-256 public key')
  }
  const forms = new Set([publicKeyHex, bytesToHex(compressP256PublicKey(bytes, field)), bytesToHex(uncompressP256PublicKey(bytes, field))])
  return [...forms].map(oidcNonce)
}

/**
 * The user an OIDC ID token logs in (OAUTH, OAUTH_LOGIN): the token verified with its nonce bound to
 * `publicKey`, then the user holding that identity in the request organization or a sub-organization.
 *
 * @throws TOKEN_INVALID naming parameters.oidcToken when the token does not verify or its nonce is not bound to the key
 * @throws NOT_FOUND when no user of the organization or its sub-organizations has the token's identity
 */
export async function userOfIdToken(ctx: ActivityContext, oidcToken: string, publicKey: string, keyField: string): Promise<UserRow> {
  const nonces = acceptedNonces(publicKey, keyField)
  const t = await ctx.rt.oidc.verify(oidcToken, { field: 'parameters.oidcToken', nonce: nonces })
  const user = await findUserInTreeByOauthIdentity(ctx.tx, ctx.organizationId, t)
  if (!user)
    throw new SigilError('NOT_FOUND', 'parameters.oidcToken: no user with this OAuth identity in the organization or its sub-organizations')
  return user
}
