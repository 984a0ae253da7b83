/**
 * Import keys (wire-formats B2 import bundles): the one way key material and secrets come in.
 * A fresh P-256 key is minted per import, its private half sealed under the master key, its public
 * half announced in a target bundle signed by the service signer; the client HPKE-encrypts to it
 * (`@turnkey/crypto` encryptPrivateKeyToBundle, encryptWalletToBundle, encryptSecretToBundle) and
 * the envelope is opened here with the sealed key. Used by init_import_wallet / import_wallet,
 * init_import_private_key / import_private_key and init_import_secrets / import_secrets.
 */
import { fieldError } from '../../../api/errors.js'
import { bytesToHex } from '../../../crypto/encoding.js'
import { generateP256KeyPair } from '../../../crypto/p256.js'
import { createTargetBundle, decryptEnvelope } from '../../../crypto/signedBundle.js'
import type { ActivityContext } from '../../activityContext.js'

/** A minted import key: its public half (65 B uncompressed hex), its sealed private half, and its signed target bundle. */
export type MintedImportKey = { publicKey: string; privateKeyEnc: string; targetBundle: string }

/** Mints an import key for `userId` of the activity's organization; `purposeOf(publicKey)` is the seal's purpose. */
export function mintImportKey(ctx: ActivityContext, userId: string, purposeOf: (publicKeyHex: string) => string): MintedImportKey {
  const key = generateP256KeyPair()
  try {
    const publicKey = bytesToHex(key.publicKeyUncompressed)
    return {
      publicKey,
      privateKeyEnc: ctx.rt.secrets.seal(key.privateKey, purposeOf(publicKey)),
      targetBundle: createTargetBundle({
        targetPublicKey: key.publicKeyUncompressed,
        signerPrivateKey: ctx.rt.keys.signer.privateKey,
        organizationId: ctx.organizationId,
        userId,
      }),
    }
  } finally {
    key.privateKey.fill(0)
  }
}

/**
 * The plaintext of a client's `{encappedPublic, ciphertext}` envelope, decrypted with a sealed
 * import key (opened, used, wiped). The caller wipes the plaintext when done.
 *
 * @throws BUNDLE_INVALID naming `field` when the envelope does not open with the key (the reason, never its content)
 */
export async function openWithImportKey(
  ctx: ActivityContext,
  sealedKey: { privateKeyEnc: string; purpose: string },
  envelope: string,
  field: string,
): Promise<Uint8Array> {
  const importKey = ctx.rt.secrets.open(sealedKey.privateKeyEnc, sealedKey.purpose)
  try {
    const opened = await decryptEnvelope({ envelope, privateKey: importKey })
    if (!opened.ok) throw fieldError('BUNDLE_INVALID', field, `cannot be decrypted with the import key (${opened.reason})`)
    return opened.plaintext
  } finally {
    importKey.fill(0)
  }
}
