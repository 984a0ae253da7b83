import type { z } from 'zod'
import type { disablePrivateKey as disablePrivateKeyOp } from '../../api/operations/disable_private_key.js'
import { disablePrivateKey } from '../store/privateKeys.js'
import { requirePrivateKey } from './shared/privateKeys.js'
import type { ActivityHandler } from './types.js'

/**
 * disable_private_key: the key signs nothing afterwards (sign_raw_payload(s), sign_transaction
 * answer FAILED_PRECONDITION naming parameters.signWith); it can still be exported or deleted.
 * Disabling a disabled key is a no-op. `{privateKeyId}`.
 *
 * @throws NOT_FOUND when parameters.privateKeyId names no private key of the organization
 */
export const handler: ActivityHandler<z.infer<typeof disablePrivateKeyOp.parameters>> = async (ctx, p) => {
  const key = await requirePrivateKey(ctx.tx, ctx.organizationId, p.privateKeyId, 'parameters.privateKeyId')
  if (!key.disabled) await disablePrivateKey(ctx.tx, key.id, ctx.now)
  return { privateKeyId: key.id }
}
