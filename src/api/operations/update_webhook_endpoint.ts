/** update_webhook_endpoint (hosted OpenAPI v1UpdateWebhookEndpointIntent / v1UpdateWebhookEndpointResult; wire-formats B9). */
import { z } from 'zod'
import { defineSubmit } from '../operation.js'
import { WebhookEndpoint, WebhookName, WebhookUrl } from '../webhooks.js'

/** Changes a webhook endpoint's URL, name or active flag: ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT. */
export const updateWebhookEndpoint = defineSubmit({
  name: 'update_webhook_endpoint',
  path: '/public/v1/submit/update_webhook_endpoint',
  type: 'ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT',
  intentKey: 'updateWebhookEndpointIntent',
  resultKey: 'updateWebhookEndpointResult',
  parameters: z.object({
    endpointId: z.string().min(1, { error: 'required' }),
    url: WebhookUrl.optional(),
    name: WebhookName.optional(),
    isActive: z.boolean().optional(),
  }),
  result: z.object({ endpointId: z.string(), webhookEndpoint: WebhookEndpoint }),
})
