/**
 * Webhook wire shapes shared by the endpoint operations (hosted OpenAPI `v1WebhookEndpointData`,
 * `v1WebhookSubscriptionParams`; wire-formats B9) and Sigil's filter language for `filtersJson`
 * (src/service/webhooks/README.md "Filters").
 */
import { z } from 'zod'
import { ActivityStatus, ActivityType } from './enums.js'
import { boundedArray } from './fields.js'
import { MAX_STATUS_FILTER, MAX_TYPE_FILTER } from './limits.js'

/** The documented event types (hosted features/webhooks/overview). */
export const WEBHOOK_EVENT_TYPES = [
  'ACTIVITY_UPDATES',
  'SEND_TRANSACTION_STATUS_UPDATES',
  'BALANCE_CONFIRMED_UPDATES',
  'BALANCE_FINALIZED_UPDATES',
] as const
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` })

/** Event types the hosted service scopes to the billing (top-level) organization. */
export const BILLING_SCOPED_EVENT_TYPES: ReadonlySet<string> = new Set([
  'SEND_TRANSACTION_STATUS_UPDATES',
  'BALANCE_CONFIRMED_UPDATES',
  'BALANCE_FINALIZED_UPDATES',
])

export const SEND_STATUSES = ['INITIALIZED', 'BROADCASTING', 'INCLUDED', 'FAILED'] as const

/** Most subscriptions on one endpoint, endpoints per organization, bytes of a filtersJson. */
export const MAX_WEBHOOK_SUBSCRIPTIONS = 16
export const MAX_WEBHOOK_ENDPOINTS = 20
export const MAX_WEBHOOK_FILTERS_JSON = 4096
export const MAX_WEBHOOK_URL = 2048

/** Filters of ACTIVITY_UPDATES: only these activity types / statuses (absent: all). */
const ActivityFilters = z.strictObject({
  activityTypes: boundedArray(ActivityType, MAX_TYPE_FILTER).optional(),
  activityStatuses: boundedArray(ActivityStatus, MAX_STATUS_FILTER).optional(),
})
/** Filters of SEND_TRANSACTION_STATUS_UPDATES: only these statuses / networks (CAIP-2). */
const SendFilters = z.strictObject({
  txStatuses: boundedArray(z.enum(SEND_STATUSES), SEND_STATUSES.length).optional(),
  caip2s: boundedArray(z.string().min(1).max(128), 32).optional(),
})
const NoFilters = z.strictObject({})

export type WebhookFilters = {
  activityTypes?: string[] | undefined
  activityStatuses?: string[] | undefined
  txStatuses?: string[] | undefined
  caip2s?: string[] | undefined
}

/** Parses a subscription's `filtersJson` for its event type ('' or absent: no filter). */
export function parseWebhookFilters(
  eventType: string,
  filtersJson: string | undefined,
): { ok: true; filters: WebhookFilters } | { ok: false; message: string } {
  if (filtersJson === undefined || filtersJson.trim() === '') return { ok: true, filters: {} }
  let value: unknown
  try {
    value = JSON.parse(filtersJson)
  } catch {
    return { ok: false, message: 'must be a JSON object' }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, message: 'must be a JSON object' }
  const schema =
    eventType === 'ACTIVITY_UPDATES' ? ActivityFilters : eventType === 'SEND_TRANSACTION_STATUS_UPDATES' ? SendFilters : NoFilters
  const parsed = schema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const at = issue?.path.length ? `${issue.path.join('.')}: ` : ''
    return { ok: false, message: `not a filter of ${eventType}: ${at}${issue?.message ?? 'invalid'}` }
  }
  return { ok: true, filters: parsed.data }
}

/** One subscription as a request carries it; `filtersJson` is checked against its event type. */
export const WebhookSubscriptionParams = z
  .object({
    eventType: WebhookEventType,
    filtersJson: z
      .string()
      .max(MAX_WEBHOOK_FILTERS_JSON, { error: `at most ${MAX_WEBHOOK_FILTERS_JSON} characters` })
      .optional(),
    isActive: z.boolean().optional(),
  })
  .superRefine((s, ctx) => {
    const r = parseWebhookFilters(s.eventType, s.filtersJson)
    if (!r.ok) ctx.addIssue({ code: 'custom', path: ['filtersJson'], message: r.message })
  })

/** A destination URL as a request carries it (the http(s) and address rules run in the service). */
export const WebhookUrl = z
  .string()
  .min(1, { error: 'required' })
  .max(MAX_WEBHOOK_URL, { error: `at most ${MAX_WEBHOOK_URL} characters` })

export const WebhookName = z.string().min(1, { error: 'required' }).max(256, { error: 'at most 256 characters' })

/** `v1WebhookEndpointData` (service-interface.md "Webhook endpoint"): the one record schema, in common.ts. */
export { WebhookEndpoint } from './common.js'
