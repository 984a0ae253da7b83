/** create_private_key_tag (service-interface.md Intents "createPrivateKeyTagIntent", Results "createPrivateKeyTagResult"). */
import { z } from 'zod'
import { StringArray, boundedArray } from '../fields.js'
import { MAX_PRIVATE_KEYS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Creates a private-key tag and puts it on keys: ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG. */
export const createPrivateKeyTag = defineSubmit({
  name: 'create_private_key_tag',
  path: '/public/v1/submit/create_private_key_tag',
  type: 'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG',
  intentKey: 'createPrivateKeyTagIntent',
  resultKey: 'createPrivateKeyTagResult',
  parameters: z.object({
    privateKeyTagName: z.string().min(1, { error: 'required' }).max(256, { error: 'at most 256 characters' }),
    privateKeyIds: boundedArray(z.string(), MAX_PRIVATE_KEYS),
  }),
  result: z.object({ privateKeyTagId: z.string(), privateKeyIds: StringArray }),
})
