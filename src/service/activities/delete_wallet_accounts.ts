import type { z } from 'zod'
import { fieldError, invalidField } from '../../api/errors.js'
import type { deleteWalletAccounts } from '../../api/operations/delete_wallet_accounts.js'
import { deleteWalletAccount, getWallet, getWalletAccountById } from '../store/wallets.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_wallet_accounts: deletes accounts by walletAccountId. As delete_wallets, an account of a
 * wallet never exported is kept unless `deleteWithoutExport` is true. Sigil records exports per
 * wallet (export_wallet), so an account counts as exported when its wallet is.
 *
 * @throws INVALID_ARGUMENT when parameters.walletAccountIds is empty
 * @throws NOT_FOUND when an id of parameters.walletAccountIds names no account of the organization
 * @throws FAILED_PRECONDITION when an account's wallet has never been exported and parameters.deleteWithoutExport is not true
 */
export const handler: ActivityHandler<z.infer<typeof deleteWalletAccounts.parameters>> = async (ctx, p) => {
  if (p.walletAccountIds.length === 0) throw invalidField('parameters.walletAccountIds', 'at least one wallet account id is required')
  const ids = new Set<string>()
  for (const [i, id] of p.walletAccountIds.entries()) {
    const field = `parameters.walletAccountIds[${i}]`
    const account = await getWalletAccountById(ctx.tx, ctx.organizationId, id)
    if (!account) throw fieldError('NOT_FOUND', field, 'no such wallet account in the organization')
    const wallet = await getWallet(ctx.tx, ctx.organizationId, account.wallet_id)
    if (!wallet?.exported && p.deleteWithoutExport !== true) {
      const description = `wallet account ${account.id} has not been exported; set deleteWithoutExport to delete it anyway`
      throw fieldError('FAILED_PRECONDITION', 'parameters.deleteWithoutExport', description)
    }
    ids.add(account.id)
  }
  for (const id of ids) await deleteWalletAccount(ctx.tx, id)
  return { walletAccountIds: [...ids] }
}
