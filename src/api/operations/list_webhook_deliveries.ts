/**
 * list_webhook_deliveries: Sigil only (the hosted API has no query for it). The delivery log of the
 * organization's webhook endpoints, one entry per attempt (src/service/webhooks/README.md).
 */
import { z } from 'zod'
import { OrganizationScoped, Timestamp } from '../common.js'
import { PageLimit } from '../fields.js'
import { defineQuery } from '../operation.js'

/** Reads the delivery log, newest attempt first; `endpointId` narrows it to one endpoint, `limit` 1..100 (default 50). */
export const listWebhookDeliveries = defineQuery({
  name: 'list_webhook_deliveries',
  path: '/public/v1/query/list_webhook_deliveries',
  request: OrganizationScoped.extend({
    endpointId: z.string().min(1, { error: 'required' }).optional(),
    limit: PageLimit.optional(),
  }),
  response: z.object({
    deliveries: z.array(
      z.object({
        deliveryId: z.string(),
        endpointId: z.string(),
        eventId: z.string(),
        eventType: z.string(),
        attempt: z.number(),
        statusCode: z.number().optional(),
        durationMs: z.number(),
        error: z.string().optional(),
        outcome: z.enum(['DELIVERED', 'RETRY', 'DEAD']),
        createdAt: Timestamp,
      }),
    ),
  }),
})
