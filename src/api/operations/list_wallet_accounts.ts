/** list_wallet_accounts (wire-formats B4 getWalletAccounts, B6 paging). */
import { z } from 'zod'
import { OrganizationScoped, PaginationOptions, WalletAccount } from '../common.js'
import { defineQuery } from '../operation.js'

/** Lists wallet accounts, optionally of one wallet, paginated (limit 1..100). */
export const listWalletAccounts = defineQuery({
  name: 'list_wallet_accounts',
  path: '/public/v1/query/list_wallet_accounts',
  request: OrganizationScoped.extend({
    walletId: z.string().optional(),
    includeWalletDetails: z.boolean().optional(),
    paginationOptions: PaginationOptions.optional(),
  }),
  response: z.object({ accounts: z.array(WalletAccount) }),
})
