import { listWebhookEndpoints } from '../store/webhooks.js'
import { endpointsToWire } from '../webhooks/endpoints.js'
import type { QueryHandler } from './types.js'

/** list_webhook_endpoints: `{organizationId}` → `{webhookEndpoints}`, oldest first, each with its subscriptions. */
export const handler: QueryHandler = async ({ sql, organizationId }) => ({
  webhookEndpoints: await endpointsToWire(sql, await listWebhookEndpoints(sql, organizationId)),
})
