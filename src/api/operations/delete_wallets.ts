/** delete_wallets (service-interface.md Results "deleteWalletsResult"). */
import { z } from 'zod'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_WALLETS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Deletes wallets: ACTIVITY_TYPE_DELETE_WALLETS. */
export const deleteWallets = defineSubmit({
  name: 'delete_wallets',
  path: '/public/v1/submit/delete_wallets',
  type: 'ACTIVITY_TYPE_DELETE_WALLETS',
  intentKey: 'deleteWalletsIntent',
  resultKey: 'deleteWalletsResult',
  parameters: z.object({ walletIds: boundedArray(z.string(), MAX_WALLETS), deleteWithoutExport: z.boolean().optional() }),
  result: z.object({ walletIds: StringArray }),
})
