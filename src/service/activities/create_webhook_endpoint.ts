import type { z } from 'zod'
import { fieldError, SigilError } from '../../api/errors.js'
import type { createWebhookEndpoint } from '../../api/operations/create_webhook_endpoint.js'
import { BILLING_SCOPED_EVENT_TYPES, MAX_WEBHOOK_ENDPOINTS } from '../../api/webhooks.js'
import { countWebhookEndpoints, insertWebhookEndpoint, organizationHasParent } from '../store/webhooks.js'
import { endpointWire, requireWebhookUrl } from '../webhooks/endpoints.js'
import { endpointsChanged } from '../webhooks/events.js'
import type { ActivityHandler } from './types.js'

/**
 * create_webhook_endpoint: registers `url` (http(s); outside dev mode a public destination) with its
 * subscriptions (each active unless `isActive: false`; `filtersJson` checked against its event type,
 * src/service/webhooks/README.md); `{endpointId, webhookEndpoint}`. Deliveries are signed with the
 * service's webhook key (GET /public/v1/discovery/webhooks/jwks).
 *
 * @throws INVALID_ARGUMENT when parameters.url is not an http(s) URL, carries credentials, or (outside dev mode) is or resolves to a loopback or private address
 * @throws PERMISSION_DENIED when a sub-organization subscribes to a billing-scoped event type (SEND_TRANSACTION_STATUS_UPDATES, BALANCE_*)
 * @throws FAILED_PRECONDITION when the organization already has 20 endpoints
 */
export const handler: ActivityHandler<z.infer<typeof createWebhookEndpoint.parameters>> = async (ctx, p) => {
  const subscriptions = (p.subscriptions ?? []).map((s) => ({
    eventType: s.eventType,
    filtersJson: s.filtersJson ?? '',
    isActive: s.isActive ?? true,
  }))
  const billing = subscriptions.findIndex((s) => BILLING_SCOPED_EVENT_TYPES.has(s.eventType))
  if (billing >= 0 && (await organizationHasParent(ctx.tx, ctx.organizationId))) {
    throw fieldError(
      'PERMISSION_DENIED',
      `parameters.subscriptions[${billing}].eventType`,
      `${subscriptions[billing]?.eventType} endpoints are managed from the parent (billing) organization`,
    )
  }
  if ((await countWebhookEndpoints(ctx.tx, ctx.organizationId)) >= MAX_WEBHOOK_ENDPOINTS) {
    throw new SigilError('FAILED_PRECONDITION', `an organization has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`)
  }
  const url = await requireWebhookUrl(ctx.rt, p.url, 'parameters.url')
  const id = crypto.randomUUID()
  await insertWebhookEndpoint(ctx.tx, { id, orgId: ctx.organizationId, url, name: p.name, subscriptions, now: ctx.now })
  endpointsChanged(ctx.rt, ctx.tx)
  return { endpointId: id, webhookEndpoint: await endpointWire(ctx.tx, ctx.organizationId, id) }
}
