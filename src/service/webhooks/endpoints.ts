/** What the endpoint operations share: URL checks and the wire record (`v1WebhookEndpointData`). */
import { fieldError } from '../../api/errors.js'
import type { Runtime } from '../runtime.js'
import type { Sql } from '../store/sql.js'
import { listWebhookEndpoints, listWebhookSubscriptions, type WebhookEndpointRow } from '../store/webhooks.js'
import { checkDestination, parseWebhookUrl } from './urls.js'

/**
 * The destination URL, checked: http(s), no credentials, and outside dev mode a host that is and
 * resolves only to public addresses. Returns it as written.
 *
 * @throws INVALID_ARGUMENT naming `field` when the URL breaks a rule
 */
export async function requireWebhookUrl(rt: Runtime, raw: string, field: string): Promise<string> {
  const parsed = parseWebhookUrl(raw)
  if (!parsed.ok) throw fieldError('INVALID_ARGUMENT', field, parsed.message)
  const reachable = await checkDestination(parsed.url, rt.config.webhooks.allowPrivateUrls)
  if (!reachable.ok) throw fieldError('INVALID_ARGUMENT', field, reachable.message)
  return raw
}

export type WebhookEndpointWire = {
  endpointId: string
  organizationId: string
  url: string
  name: string
  isActive: boolean
  subscriptions: Array<{ eventType: string; filtersJson: string; isActive: boolean }>
}

/** The endpoints as the wire shows them, with their subscriptions in order. */
export async function endpointsToWire(sql: Sql, rows: readonly WebhookEndpointRow[]): Promise<WebhookEndpointWire[]> {
  const subs = await listWebhookSubscriptions(
    sql,
    rows.map((r) => r.id),
  )
  return rows.map((r) => ({
    endpointId: r.id,
    organizationId: r.organization_id,
    url: r.url,
    name: r.name,
    isActive: r.is_active,
    subscriptions: subs
      .filter((s) => s.endpoint_id === r.id)
      .map((s) => ({ eventType: s.event_type, filtersJson: s.filters_json, isActive: s.is_active })),
  }))
}

/** One endpoint of the organization as the wire shows it (after a write in `sql`). */
export async function endpointWire(sql: Sql, orgId: string, id: string): Promise<WebhookEndpointWire> {
  const [wire] = await endpointsToWire(sql, await listWebhookEndpoints(sql, orgId, [id]))
  if (!wire) throw fieldError('NOT_FOUND', 'parameters.endpointId', 'no webhook endpoint with this id in the organization')
  return wire
}
