/** update_private_key_tag (service-interface.md Intents "updatePrivateKeyTagIntent", Results "updatePrivateKeyTagResult"). */
import { z } from 'zod'
import { boundedArray } from '../fields.js'
import { MAX_PRIVATE_KEYS } from '../limits.js'
import { defineSubmit } from '../operation.js'

/** Renames a private-key tag and adds it to or removes it from keys: ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG. */
export const updatePrivateKeyTag = defineSubmit({
  name: 'update_private_key_tag',
  path: '/public/v1/submit/update_private_key_tag',
  type: 'ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG',
  intentKey: 'updatePrivateKeyTagIntent',
  resultKey: 'updatePrivateKeyTagResult',
  parameters: z.object({
    privateKeyTagId: z.string().min(1, { error: 'required' }),
    newPrivateKeyTagName: z.string().min(1, { error: 'must not be empty' }).max(256, { error: 'at most 256 characters' }).optional(),
    addPrivateKeyIds: boundedArray(z.string(), MAX_PRIVATE_KEYS),
    removePrivateKeyIds: boundedArray(z.string(), MAX_PRIVATE_KEYS),
  }),
  result: z.object({ privateKeyTagId: z.string() }),
})
