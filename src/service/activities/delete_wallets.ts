import type { z } from 'zod'
import { fieldError, invalidField } from '../../api/errors.js'
import type { deleteWallets } from '../../api/operations/delete_wallets.js'
import { deleteWallet } from '../store/wallets.js'
import { requireWallet } from '../signing/walletLookup.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_wallets (service-interface Results "deleteWalletsResult"): a wallet never exported is
 * kept unless `deleteWithoutExport` is true (its mnemonic would be lost for good).
 *
 * @throws INVALID_ARGUMENT when parameters.walletIds is empty
 * @throws NOT_FOUND when an id of parameters.walletIds names no wallet of the organization
 * @throws FAILED_PRECONDITION when a wallet has never been exported and parameters.deleteWithoutExport is not true
 */
export const handler: ActivityHandler<z.infer<typeof deleteWallets.parameters>> = async (ctx, p) => {
  if (p.walletIds.length === 0) throw invalidField('parameters.walletIds', 'at least one wallet id is required')
  const ids = new Set<string>()
  for (const [i, id] of p.walletIds.entries()) {
    const wallet = await requireWallet(ctx.tx, ctx.organizationId, id, `parameters.walletIds[${i}]`)
    if (!wallet.exported && p.deleteWithoutExport !== true) {
      const description = `wallet ${wallet.id} has not been exported; set deleteWithoutExport to delete it anyway`
      throw fieldError('FAILED_PRECONDITION', 'parameters.deleteWithoutExport', description)
    }
    ids.add(wallet.id)
  }
  for (const id of ids) await deleteWallet(ctx.tx, id)
  return { walletIds: [...ids] }
}
