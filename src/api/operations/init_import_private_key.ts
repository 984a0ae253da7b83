/** init_import_private_key (service-interface.md Results "initImportPrivateKeyResult"; wire-formats B2 import bundles). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Returns an import target bundle: ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY. */
export const initImportPrivateKey = defineSubmit({
  name: 'init_import_private_key',
  path: '/public/v1/submit/init_import_private_key',
  type: 'ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY',
  intentKey: 'initImportPrivateKeyIntent',
  resultKey: 'initImportPrivateKeyResult',
  parameters: z.object({ userId: z.string() }),
  result: z.object({ importBundle: z.string() }),
})
