/** delete_webhook_endpoint (hosted OpenAPI v1DeleteWebhookEndpointIntent / v1DeleteWebhookEndpointResult; wire-formats B9). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'

/** Deletes a webhook endpoint, its subscriptions, queued deliveries and log: ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT. */
export const deleteWebhookEndpoint = defineSubmit({
  name: 'delete_webhook_endpoint',
  path: '/public/v1/submit/delete_webhook_endpoint',
  type: 'ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT',
  intentKey: 'deleteWebhookEndpointIntent',
  resultKey: 'deleteWebhookEndpointResult',
  parameters: z.object({ endpointId: z.string().min(1, { error: 'required' }) }),
  result: z.object({ endpointId: z.string() }),
})
