/** delete_wallet_accounts (service-interface.md Results "deleteWalletAccountsResult"; hosted OpenAPI v1DeleteWalletAccountsIntent). */
import { z } from 'zod'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_WALLET_ACCOUNTS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Deletes accounts of wallets: ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS. */
export const deleteWalletAccounts = defineSubmit({
  name: 'delete_wallet_accounts',
  path: '/public/v1/submit/delete_wallet_accounts',
  type: 'ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS',
  intentKey: 'deleteWalletAccountsIntent',
  resultKey: 'deleteWalletAccountsResult',
  parameters: z.object({ walletAccountIds: boundedArray(z.string(), MAX_WALLET_ACCOUNTS), deleteWithoutExport: z.boolean().optional() }),
  result: z.object({ walletAccountIds: StringArray }),
})
