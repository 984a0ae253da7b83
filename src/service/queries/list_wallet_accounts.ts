import type { z } from 'zod'
import type { listWalletAccounts as listWalletAccountsQuery } from '../../api/operations/list_wallet_accounts.js'
import { requireWallet } from '../signing/walletLookup.js'
import type { QueryHandler } from './types.js'
import { type WalletRow, getWallet, listWalletAccounts, walletAccountToWire } from '../store/wallets.js'

type Request = z.infer<typeof listWalletAccountsQuery.request>

/**
 * list_wallet_accounts (wire-formats B4 getWalletAccounts, B6 paging): accounts in creation order,
 * optionally of one wallet; `paginationOptions` as every list (`store/page.ts`: limit 1–100, default
 * 10; `after`/`before` are walletAccountIds of the organization); `includeWalletDetails` adds `walletDetails`.
 *
 * @throws NOT_FOUND when walletId names no wallet of the organization
 * @throws INVALID_ARGUMENT when paginationOptions.after or paginationOptions.before names no wallet account of the organization
 */
export const handler: QueryHandler<Request> = async ({ sql, organizationId }, req) => {
  if (req.walletId !== undefined) await requireWallet(sql, organizationId, req.walletId, 'walletId')
  const rows = await listWalletAccounts(sql, { organizationId, walletId: req.walletId, page: req.paginationOptions })
  const wallets = new Map<string, WalletRow | undefined>()
  const accounts = []
  for (const a of rows) {
    let wallet: WalletRow | undefined
    if (req.includeWalletDetails) {
      if (!wallets.has(a.wallet_id)) wallets.set(a.wallet_id, await getWallet(sql, organizationId, a.wallet_id))
      wallet = wallets.get(a.wallet_id)
    }
    accounts.push(walletAccountToWire(a, wallet))
  }
  return { accounts }
}
