import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { deleteWebhookEndpoint } from '../../api/operations/delete_webhook_endpoint.js'
import { deleteWebhookEndpoint as storeDelete, lockWebhookEndpoint } from '../store/webhooks.js'
import { endpointsChanged } from '../webhooks/events.js'
import type { ActivityHandler } from './types.js'

/**
 * delete_webhook_endpoint: removes the endpoint with its subscriptions, queued deliveries and
 * delivery log; `{endpointId}`.
 *
 * @throws NOT_FOUND when parameters.endpointId names no webhook endpoint of the organization
 */
export const handler: ActivityHandler<z.infer<typeof deleteWebhookEndpoint.parameters>> = async (ctx, p) => {
  const endpoint = await lockWebhookEndpoint(ctx.tx, ctx.organizationId, p.endpointId)
  if (!endpoint) throw fieldError('NOT_FOUND', 'parameters.endpointId', 'no webhook endpoint with this id in the organization')
  await storeDelete(ctx.tx, endpoint.id)
  endpointsChanged(ctx.rt, ctx.tx)
  return { endpointId: endpoint.id }
}
