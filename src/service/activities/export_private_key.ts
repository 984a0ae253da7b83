import type { z } from 'zod'
import type { exportPrivateKey } from '../../api/operations/export_private_key.js'
import { markPrivateKeyExported, privateKeyPurpose } from '../store/privateKeys.js'
import { exportTo } from './shared/exportBundle.js'
import { requirePrivateKey } from './shared/privateKeys.js'
import type { ActivityHandler } from './types.js'

/**
 * export_private_key (wire-formats B2): the raw 32-byte key in an export bundle to
 * `targetPublicKey` (what `@turnkey/crypto` `decryptExportBundle` opens); the key is marked
 * exported (delete_private_keys then needs no flag). A disabled key may still be exported.
 *
 * @throws NOT_FOUND when parameters.privateKeyId names no private key of the organization
 * @throws INVALID_ARGUMENT when parameters.targetPublicKey is not a hex P-256 public key
 */
export const handler: ActivityHandler<z.infer<typeof exportPrivateKey.parameters>> = async (ctx, p) => {
  const key = await requirePrivateKey(ctx.tx, ctx.organizationId, p.privateKeyId, 'parameters.privateKeyId')
  const secret = ctx.rt.secrets.open(key.private_key_enc, privateKeyPurpose(key.id))
  try {
    const exportBundle = await exportTo(ctx, p.targetPublicKey, secret)
    await markPrivateKeyExported(ctx.tx, key.id, ctx.now)
    return { privateKeyId: key.id, exportBundle }
  } finally {
    secret.fill(0)
  }
}
