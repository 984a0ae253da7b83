import type { z } from 'zod'
import { fieldError, invalidField } from '../../api/errors.js'
import type { importPrivateKey } from '../../api/operations/import_private_key.js'
import { publicKeyOf } from '../../chains/keys.js'
import type { Curve } from '../../chains/types.js'
import { deleteImportKey, getImportKey, sealPurpose } from '../store/wallets.js'
import { namingFields } from '../fieldNames.js'
import { openWithImportKey } from './shared/importKeys.js'
import { requireUser } from './shared/lookup.js'
import { storePrivateKey } from './shared/privateKeys.js'
import type { ActivityHandler } from './types.js'

const BUNDLE = 'parameters.encryptedBundle'

/**
 * import_private_key (wire-formats B2): decrypts the envelope with the user's import key (from
 * init_import_private_key, used once) to the raw 32-byte key (what `@turnkey/crypto`
 * `encryptPrivateKeyToBundle` seals, hexadecimal or Solana format), and stores it
 * (`imported: true`) with an address per format.
 *
 * @throws NOT_FOUND when parameters.userId names no user of the organization
 * @throws FAILED_PRECONDITION when no import was initiated for the user
 * @throws BUNDLE_INVALID when parameters.encryptedBundle cannot be decrypted with the user's import key
 * @throws INVALID_ARGUMENT when the decrypted key is not a 32-byte key of parameters.curve, or a format does not fit the curve
 * @throws ALREADY_EXISTS when the organization has a private key of that name
 */
export const handler: ActivityHandler<z.infer<typeof importPrivateKey.parameters>> = async (ctx, p) => {
  await requireUser(ctx.tx, ctx.organizationId, p.userId, 'parameters.userId')
  const row = await getImportKey(ctx.tx, ctx.organizationId, p.userId)
  if (!row) {
    throw fieldError(
      'FAILED_PRECONDITION',
      'parameters.userId',
      'no import was initiated for this user: call init_import_private_key first',
    )
  }
  const secret = await openWithImportKey(
    ctx,
    { privateKeyEnc: row.private_key_enc, purpose: sealPurpose.importKey(ctx.organizationId, p.userId) },
    p.encryptedBundle,
    BUNDLE,
  )
  let publicKey: Uint8Array
  try {
    if (secret.length !== 32) throw invalidField(BUNDLE, `must hold a 32-byte private key (got ${secret.length} bytes)`)
    publicKey = namingFields(
      () => BUNDLE,
      () => publicKeyOf(p.curve as Curve, secret),
    )
  } catch (e) {
    secret.fill(0)
    throw e
  }
  const result = await storePrivateKey(
    ctx,
    { privateKeyName: p.privateKeyName, curve: p.curve, addressFormats: p.addressFormats },
    { privateKey: secret, publicKey },
    'parameters',
    { imported: true },
  )
  await deleteImportKey(ctx.tx, ctx.organizationId, p.userId)
  return result
}
