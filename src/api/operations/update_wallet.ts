/** update_wallet (service-interface.md Results "updateWalletResult"; hosted OpenAPI v1UpdateWalletIntent). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Renames a wallet: ACTIVITY_TYPE_UPDATE_WALLET. */
export const updateWallet = defineSubmit({
  name: 'update_wallet',
  path: '/public/v1/submit/update_wallet',
  type: 'ACTIVITY_TYPE_UPDATE_WALLET',
  intentKey: 'updateWalletIntent',
  resultKey: 'updateWalletResult',
  parameters: z.object({
    walletId: z.string().min(1, { error: 'required' }),
    walletName: z.string().min(1, { error: 'must not be empty' }).max(256, { error: 'at most 256 characters' }).optional(),
  }),
  result: z.object({ walletId: z.string() }),
})
