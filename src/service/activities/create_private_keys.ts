import type { z } from 'zod'
import type { createPrivateKeys, createPrivateKeysV1 } from '../../api/operations/create_private_keys.js'
import { generateKeyPair } from '../../chains/keys.js'
import type { Curve } from '../../chains/types.js'
import { storePrivateKey } from './shared/privateKeys.js'
import type { ActivityContext } from '../activityContext.js'
import type { ActivityHandler } from './types.js'

type Params = z.infer<typeof createPrivateKeys.parameters>

/** Creates every key of the request (all or none: the activity's transaction). */
async function createAll(ctx: ActivityContext, p: Params) {
  const out = []
  for (const [i, k] of p.privateKeys.entries()) {
    out.push(await storePrivateKey(ctx, k, generateKeyPair(k.curve as Curve), `parameters.privateKeys[${i}]`, { imported: false }))
  }
  return out
}

/**
 * create_private_keys V2: a fresh key per entry on its curve, with an address per format and its
 * private-key tags; `{privateKeys: [{privateKeyId, addresses}]}`.
 *
 * @throws INVALID_ARGUMENT when a name is blank or an address format does not fit the key's curve
 * @throws ALREADY_EXISTS when a name is taken in the organization (or repeated in the request)
 * @throws NOT_FOUND when a tag id names no private-key tag of the organization
 */
export const handler: ActivityHandler<Params> = async (ctx, p) => ({ privateKeys: await createAll(ctx, p) })

/** create_private_keys V1: as V2, the result listing ids only. */
export const handlerV1: ActivityHandler<z.infer<typeof createPrivateKeysV1.parameters>> = async (ctx, p) => ({
  privateKeyIds: (await createAll(ctx, p)).map((k) => k.privateKeyId),
})
