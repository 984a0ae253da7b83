/** create_webhook_endpoint (hosted OpenAPI v1CreateWebhookEndpointIntent / v1CreateWebhookEndpointResult; wire-formats B9). */
import { z } from 'zod'
import { boundedArray } from '../fields.js'
import { defineSubmit } from '../operation.js'
import { MAX_WEBHOOK_SUBSCRIPTIONS, WebhookEndpoint, WebhookName, WebhookSubscriptionParams, WebhookUrl } from '../webhooks.js'

/** Registers a webhook endpoint with its subscriptions: ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT. */
export const createWebhookEndpoint = defineSubmit({
  name: 'create_webhook_endpoint',
  path: '/public/v1/submit/create_webhook_endpoint',
  type: 'ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT',
  intentKey: 'createWebhookEndpointIntent',
  resultKey: 'createWebhookEndpointResult',
  parameters: z.object({
    url: WebhookUrl,
    name: WebhookName,
    subscriptions: boundedArray(WebhookSubscriptionParams, MAX_WEBHOOK_SUBSCRIPTIONS).optional(),
  }),
  result: z.object({ endpointId: z.string(), webhookEndpoint: WebhookEndpoint }),
})
