import type { z } from 'zod'
import type { initImportWallet } from '../../api/operations/init_import_wallet.js'
import { sealPurpose, upsertImportKey } from '../store/wallets.js'
import { mintImportKey } from './shared/importKeys.js'
import { requireUser } from './shared/lookup.js'
import type { ActivityHandler } from './types.js'

/**
 * init_import_wallet (wire-formats B2 import bundles): a fresh P-256 import key for the user
 * (private half sealed, replacing any earlier one) announced in a target bundle signed by the
 * service signer, with `organizationId` and `userId`.
 *
 * @throws NOT_FOUND when parameters.userId names no user of the organization
 */
export const handler: ActivityHandler<z.infer<typeof initImportWallet.parameters>> = async (ctx, p) => {
  await requireUser(ctx.tx, ctx.organizationId, p.userId, 'parameters.userId')
  const key = mintImportKey(ctx, p.userId, () => sealPurpose.importKey(ctx.organizationId, p.userId))
  await upsertImportKey(ctx.tx, {
    organization_id: ctx.organizationId,
    user_id: p.userId,
    public_key: key.publicKey,
    private_key_enc: key.privateKeyEnc,
    created_at: ctx.now,
  })
  return { importBundle: key.targetBundle }
}
