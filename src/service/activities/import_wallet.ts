import type { z } from 'zod'
import { fieldError, invalidField } from '../../api/errors.js'
import type { importWallet } from '../../api/operations/import_wallet.js'
import { validateMnemonic } from '../../chains/mnemonic.js'
import { utf8Decode } from '../../crypto/encoding.js'
import { deleteImportKey, getImportKey, sealPurpose } from '../store/wallets.js'
import { openWithImportKey } from './shared/importKeys.js'
import { requireUser } from './shared/lookup.js'
import { storeWallet } from './shared/wallets.js'
import type { ActivityHandler } from './types.js'

const BUNDLE = 'parameters.encryptedBundle'

/** The mnemonic inside the envelope, normalised (single spaces, lowercase); refuses anything else. */
function normalisedMnemonic(plaintext: Uint8Array): string {
  let text: string
  try {
    text = utf8Decode(plaintext)
  } catch {
    throw invalidField(BUNDLE, 'invalid mnemonic: not UTF-8 text')
  } finally {
    plaintext.fill(0)
  }
  const mnemonic = text.trim().toLowerCase().split(/\s+/).join(' ')
  if (!validateMnemonic(mnemonic)) throw invalidField(BUNDLE, 'invalid mnemonic')
  return mnemonic
}

/**
 * import_wallet (wire-formats B2): decrypts the `{encappedPublic, ciphertext}` envelope with the
 * user's import key (from init_import_wallet, used once), validates the BIP-39 mnemonic and
 * stores the wallet (`imported: true`) with its accounts.
 *
 * @throws NOT_FOUND when parameters.userId names no user of the organization
 * @throws FAILED_PRECONDITION when no import was initiated for the user (init_import_wallet)
 * @throws BUNDLE_INVALID when parameters.encryptedBundle cannot be decrypted with the user's import key
 * @throws INVALID_ARGUMENT when the decrypted bundle is not a valid BIP-39 mnemonic in UTF-8, or an account's curve, path or addressFormat is invalid
 * @throws ALREADY_EXISTS when parameters.accounts repeats an account (curve, path and address format)
 */
export const handler: ActivityHandler<z.infer<typeof importWallet.parameters>> = async (ctx, p) => {
  await requireUser(ctx.tx, ctx.organizationId, p.userId, 'parameters.userId')
  const row = await getImportKey(ctx.tx, ctx.organizationId, p.userId)
  if (!row) {
    throw fieldError('FAILED_PRECONDITION', 'parameters.userId', 'no import was initiated for this user: call init_import_wallet first')
  }
  const plaintext = await openWithImportKey(
    ctx,
    { privateKeyEnc: row.private_key_enc, purpose: sealPurpose.importKey(ctx.organizationId, p.userId) },
    p.encryptedBundle,
    BUNDLE,
  )
  const mnemonic = normalisedMnemonic(plaintext)
  const result = await storeWallet(
    ctx,
    ctx.organizationId,
    { walletName: p.walletName, mnemonic, imported: true, accounts: p.accounts },
    'parameters',
  )
  await deleteImportKey(ctx.tx, ctx.organizationId, p.userId)
  return result
}
