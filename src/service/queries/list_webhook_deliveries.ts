import { fieldError } from '../../api/errors.js'
import { listWebhookDeliveries, listWebhookEndpoints } from '../store/webhooks.js'
import { toTimestamp } from '../store/time.js'
import type { QueryHandler } from './types.js'

/**
 * list_webhook_deliveries (Sigil only): the delivery log of the organization's endpoints, one entry
 * per attempt, newest first: status code, duration, error (a short reason, never the URL or body),
 * outcome DELIVERED / RETRY / DEAD.
 *
 * @throws NOT_FOUND when endpointId names no webhook endpoint of the organization
 */
export const handler: QueryHandler<{ endpointId?: string | undefined; limit?: string | undefined }> = async (
  { sql, organizationId },
  req,
) => {
  if (req.endpointId !== undefined && (await listWebhookEndpoints(sql, organizationId, [req.endpointId])).length === 0) {
    throw fieldError('NOT_FOUND', 'endpointId', 'no webhook endpoint with this id in the organization')
  }
  const rows = await listWebhookDeliveries(sql, organizationId, { endpointId: req.endpointId, limit: Number(req.limit ?? 50) })
  return {
    deliveries: rows.map((r) => ({
      deliveryId: r.id,
      endpointId: r.endpoint_id,
      eventId: r.event_id,
      eventType: r.event_type,
      attempt: Number(r.attempt),
      ...(r.status_code === null ? {} : { statusCode: Number(r.status_code) }),
      durationMs: Number(r.duration_ms),
      ...(r.error === null ? {} : { error: r.error }),
      outcome: r.outcome,
      createdAt: toTimestamp(Number(r.created_at)),
    })),
  }
}
