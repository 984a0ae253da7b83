/** export_private_key (service-interface.md Results "exportPrivateKeyResult"; wire-formats B2). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Exports a private key encrypted to `targetPublicKey`: ACTIVITY_TYPE_EXPORT_PRIVATE_KEY. */
export const exportPrivateKey = defineSubmit({
  name: 'export_private_key',
  path: '/public/v1/submit/export_private_key',
  type: 'ACTIVITY_TYPE_EXPORT_PRIVATE_KEY',
  intentKey: 'exportPrivateKeyIntent',
  resultKey: 'exportPrivateKeyResult',
  parameters: z.object({ privateKeyId: z.string().min(1, { error: 'required' }), targetPublicKey: z.string() }),
  result: z.object({ privateKeyId: z.string(), exportBundle: z.string() }),
})
