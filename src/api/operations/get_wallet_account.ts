/** get_wallet_account (hosted OpenAPI v1GetWalletAccountRequest / v1GetWalletAccountResponse). */
import { z } from 'zod'
import { OrganizationScoped, WalletAccount } from '../common.js'
import { defineQuery } from '../operation.js'

/** Reads one account of a wallet, by `address` or by derivation `path` (one of them is required). */
export const getWalletAccount = defineQuery({
  name: 'get_wallet_account',
  path: '/public/v1/query/get_wallet_account',
  request: OrganizationScoped.extend({
    walletId: z.string().min(1, { error: 'required' }),
    address: z.string().min(1, { error: 'must not be empty' }).optional(),
    path: z.string().min(1, { error: 'must not be empty' }).optional(),
  }),
  response: z.object({ account: WalletAccount }),
})
