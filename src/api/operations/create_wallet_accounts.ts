/** create_wallet_accounts (service-interface.md "Submit operations" 4). */
import { z } from 'zod'
import { WalletAccountsParam } from '../common.js'
import { StringArray } from '../fields.js'
import { defineSubmit } from '../operation.js'

/** Derives more accounts in a wallet: ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS. */
export const createWalletAccounts = defineSubmit({
  name: 'create_wallet_accounts',
  path: '/public/v1/submit/create_wallet_accounts',
  type: 'ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS',
  intentKey: 'createWalletAccountsIntent',
  resultKey: 'createWalletAccountsResult',
  parameters: z.object({
    walletId: z.string(),
    accounts: WalletAccountsParam,
    persist: z.boolean().optional(),
  }),
  result: z.object({ addresses: StringArray }),
})
