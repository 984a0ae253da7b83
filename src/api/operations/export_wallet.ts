/** export_wallet (service-interface.md Results "exportWalletResult"; wire-formats B2 export bundles). */
import { z } from 'zod'
import { MnemonicLanguage } from '../enums.js'
import { defineSubmit } from '../operation.js'

/** Exports a wallet's mnemonic encrypted to `targetPublicKey`: ACTIVITY_TYPE_EXPORT_WALLET. */
export const exportWallet = defineSubmit({
  name: 'export_wallet',
  path: '/public/v1/submit/export_wallet',
  type: 'ACTIVITY_TYPE_EXPORT_WALLET',
  intentKey: 'exportWalletIntent',
  resultKey: 'exportWalletResult',
  parameters: z.object({
    walletId: z.string(),
    targetPublicKey: z.string(),
    language: MnemonicLanguage.optional(),
  }),
  result: z.object({ walletId: z.string(), exportBundle: z.string() }),
})
