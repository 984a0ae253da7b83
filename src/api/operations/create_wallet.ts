/** create_wallet (wire-formats B4 createWallet). */
import { z } from 'zod'
import { WalletAccountsParam } from '../common.js'
import { MnemonicLength, StringArray } from '../fields.js'
import { defineSubmit } from '../operation.js'

/** Creates an HD wallet and its first accounts: ACTIVITY_TYPE_CREATE_WALLET. */
export const createWallet = defineSubmit({
  name: 'create_wallet',
  path: '/public/v1/submit/create_wallet',
  type: 'ACTIVITY_TYPE_CREATE_WALLET',
  intentKey: 'createWalletIntent',
  resultKey: 'createWalletResult',
  parameters: z.object({
    walletName: z.string().min(1, { error: 'required' }),
    accounts: WalletAccountsParam,
    mnemonicLength: MnemonicLength.optional(),
  }),
  result: z.object({ walletId: z.string(), addresses: StringArray }),
})
