import type { z } from 'zod'
import type { updateWallet } from '../../api/operations/update_wallet.js'
import { renameWallet } from '../store/wallets.js'
import { requireWallet } from '../signing/walletLookup.js'
import type { ActivityHandler } from './types.js'

/**
 * update_wallet: renames the wallet when `walletName` is given (names need not be unique, as at
 * create_wallet); `{walletId}`.
 *
 * @throws NOT_FOUND when parameters.walletId names no wallet of the organization
 */
export const handler: ActivityHandler<z.infer<typeof updateWallet.parameters>> = async (ctx, p) => {
  const wallet = await requireWallet(ctx.tx, ctx.organizationId, p.walletId, 'parameters.walletId')
  if (p.walletName !== undefined && p.walletName !== wallet.name) await renameWallet(ctx.tx, wallet.id, p.walletName, ctx.now)
  return { walletId: wallet.id }
}
