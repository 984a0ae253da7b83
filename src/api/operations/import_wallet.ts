/** import_wallet (service-interface.md Results "importWalletResult"; wire-formats B2). */
import { z } from 'zod'
import { WalletAccountsParam } from '../common.js'
import { StringArray } from '../fields.js'
import { defineSubmit } from '../operation.js'

/** Imports an encrypted mnemonic as a wallet: ACTIVITY_TYPE_IMPORT_WALLET. */
export const importWallet = defineSubmit({
  name: 'import_wallet',
  path: '/public/v1/submit/import_wallet',
  type: 'ACTIVITY_TYPE_IMPORT_WALLET',
  intentKey: 'importWalletIntent',
  resultKey: 'importWalletResult',
  parameters: z.object({
    userId: z.string(),
    walletName: z.string().min(1, { error: 'required' }),
    encryptedBundle: z.string(),
    accounts: WalletAccountsParam,
  }),
  result: z.object({ walletId: z.string(), addresses: StringArray }),
})
