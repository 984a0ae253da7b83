/** import_private_key (service-interface.md Results "importPrivateKeyResult"; hosted OpenAPI v1ImportPrivateKeyIntent). */
import { z } from 'zod'
import { AddressFormat, Curve } from '../enums.js'
import { boundedArray } from '../fields.js'
import { MAX_ADDRESS_FORMATS } from '../limits.js'
import { defineSubmit } from '../operation.js'
import { PrivateKeyAddress } from './create_private_keys.js'

/** Imports an encrypted 32-byte private key: ACTIVITY_TYPE_IMPORT_PRIVATE_KEY. */
export const importPrivateKey = defineSubmit({
  name: 'import_private_key',
  path: '/public/v1/submit/import_private_key',
  type: 'ACTIVITY_TYPE_IMPORT_PRIVATE_KEY',
  intentKey: 'importPrivateKeyIntent',
  resultKey: 'importPrivateKeyResult',
  parameters: z.object({
    userId: z.string(),
    privateKeyName: z.string().min(1, { error: 'required' }).max(256, { error: 'at most 256 characters' }),
    encryptedBundle: z.string(),
    curve: Curve,
    addressFormats: boundedArray(AddressFormat, MAX_ADDRESS_FORMATS),
  }),
  result: z.object({ privateKeyId: z.string(), addresses: z.array(PrivateKeyAddress) }),
})
