/** init_import_wallet (service-interface.md Results "initImportWalletResult"; wire-formats B2 import bundles). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Returns an import target bundle: ACTIVITY_TYPE_INIT_IMPORT_WALLET. */
export const initImportWallet = defineSubmit({
  name: 'init_import_wallet',
  path: '/public/v1/submit/init_import_wallet',
  type: 'ACTIVITY_TYPE_INIT_IMPORT_WALLET',
  intentKey: 'initImportWalletIntent',
  resultKey: 'initImportWalletResult',
  parameters: z.object({ userId: z.string() }),
  result: z.object({ importBundle: z.string() }),
})
