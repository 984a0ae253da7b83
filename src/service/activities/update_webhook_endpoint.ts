import type { z } from 'zod'
import { fieldError } from '../../api/errors.js'
import type { updateWebhookEndpoint } from '../../api/operations/update_webhook_endpoint.js'
import { lockWebhookEndpoint, updateWebhookEndpoint as storeUpdate } from '../store/webhooks.js'
import { endpointWire, requireWebhookUrl } from '../webhooks/endpoints.js'
import { endpointsChanged } from '../webhooks/events.js'
import type { ActivityHandler } from './types.js'

/**
 * update_webhook_endpoint: changes the endpoint's `url` (checked as at creation), `name` or
 * `isActive` (an inactive endpoint is queued nothing, and its queued deliveries are given up);
 * `{endpointId, webhookEndpoint}`. Subscriptions are not changed here (the hosted intent has none).
 *
 * @throws NOT_FOUND when parameters.endpointId names no webhook endpoint of the organization
 * @throws INVALID_ARGUMENT when parameters.url is not an http(s) URL, carries credentials, or (outside dev mode) is or resolves to a loopback or private address
 */
export const handler: ActivityHandler<z.infer<typeof updateWebhookEndpoint.parameters>> = async (ctx, p) => {
  const endpoint = await lockWebhookEndpoint(ctx.tx, ctx.organizationId, p.endpointId)
  if (!endpoint) throw fieldError('NOT_FOUND', 'parameters.endpointId', 'no webhook endpoint with this id in the organization')
  const url = p.url === undefined || p.url === endpoint.url ? endpoint.url : await requireWebhookUrl(ctx.rt, p.url, 'parameters.url')
  await storeUpdate(ctx.tx, endpoint.id, {
    url,
    name: p.name ?? endpoint.name,
    isActive: p.isActive ?? endpoint.is_active,
    now: ctx.now,
  })
  endpointsChanged(ctx.rt, ctx.tx)
  return { endpointId: endpoint.id, webhookEndpoint: await endpointWire(ctx.tx, ctx.organizationId, endpoint.id) }
}
