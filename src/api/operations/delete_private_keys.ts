/** delete_private_keys (service-interface.md Results "deletePrivateKeysResult"; hosted OpenAPI v1DeletePrivateKeysIntent). */
import { z } from 'zod'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_PRIVATE_KEYS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Deletes private keys: ACTIVITY_TYPE_DELETE_PRIVATE_KEYS. */
export const deletePrivateKeys = defineSubmit({
  name: 'delete_private_keys',
  path: '/public/v1/submit/delete_private_keys',
  type: 'ACTIVITY_TYPE_DELETE_PRIVATE_KEYS',
  intentKey: 'deletePrivateKeysIntent',
  resultKey: 'deletePrivateKeysResult',
  parameters: z.object({ privateKeyIds: boundedArray(z.string(), MAX_PRIVATE_KEYS), deleteWithoutExport: z.boolean().optional() }),
  result: z.object({ privateKeyIds: StringArray }),
})
