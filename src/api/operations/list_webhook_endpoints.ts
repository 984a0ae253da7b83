/** list_webhook_endpoints (hosted OpenAPI v1ListWebhookEndpointsRequest / v1ListWebhookEndpointsResponse). */
import { z } from 'zod'
import { OrganizationScoped } from '../common.js'
import { defineQuery } from '../operation.js'
import { WebhookEndpoint } from '../webhooks.js'

/** Lists the organization's webhook endpoints, oldest first. */
export const listWebhookEndpoints = defineQuery({
  name: 'list_webhook_endpoints',
  path: '/public/v1/query/list_webhook_endpoints',
  request: OrganizationScoped,
  response: z.object({ webhookEndpoints: z.array(WebhookEndpoint) }),
})
