/** export_wallet_account (service-interface.md Results "exportWalletAccountResult"; wire-formats B2). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Exports one account's private key encrypted to `targetPublicKey`: ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT. */
export const exportWalletAccount = defineSubmit({
  name: 'export_wallet_account',
  path: '/public/v1/submit/export_wallet_account',
  type: 'ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT',
  intentKey: 'exportWalletAccountIntent',
  resultKey: 'exportWalletAccountResult',
  parameters: z.object({ address: z.string(), targetPublicKey: z.string() }),
  result: z.object({ address: z.string(), exportBundle: z.string() }),
})
