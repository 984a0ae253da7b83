/** create_private_keys (service-interface.md Intents "createPrivateKeysIntent", Results "createPrivateKeysResult(V2)"). */
import { z } from 'zod'
import { AddressFormat, Curve } from '../enums.js'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_ADDRESS_FORMATS, MAX_PRIVATE_KEYS, MAX_USER_TAGS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** One private key to create (hosted OpenAPI v1PrivateKeyParams). */
export const PrivateKeyParams = z.object({
  privateKeyName: z.string().min(1, { error: 'required' }).max(256, { error: 'at most 256 characters' }),
  curve: Curve,
  privateKeyTags: boundedArray(z.string(), MAX_USER_TAGS),
  addressFormats: boundedArray(AddressFormat, MAX_ADDRESS_FORMATS),
})
export type PrivateKeyParams = z.infer<typeof PrivateKeyParams>

const Parameters = z.object({ privateKeys: boundedArray(PrivateKeyParams, MAX_PRIVATE_KEYS) })

/** `{format, address}` of a private key. */
export const PrivateKeyAddress = z.object({ format: AddressFormat, address: z.string() })

/** ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2, what `@turnkey/http` sends: the result carries each key's addresses. */
export const createPrivateKeys = defineSubmit({
  name: 'create_private_keys',
  path: '/public/v1/submit/create_private_keys',
  type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2',
  intentKey: 'createPrivateKeysIntentV2',
  resultKey: 'createPrivateKeysResultV2',
  parameters: Parameters,
  result: z.object({ privateKeys: z.array(z.object({ privateKeyId: z.string(), addresses: z.array(PrivateKeyAddress) })) }),
})

/** ACTIVITY_TYPE_CREATE_PRIVATE_KEYS, on the same path: the result lists ids only. */
export const createPrivateKeysV1 = defineSubmit({
  name: 'create_private_keys_v1',
  path: '/public/v1/submit/create_private_keys',
  type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEYS',
  intentKey: 'createPrivateKeysIntent',
  resultKey: 'createPrivateKeysResult',
  parameters: Parameters,
  result: z.object({ privateKeyIds: StringArray }),
})
