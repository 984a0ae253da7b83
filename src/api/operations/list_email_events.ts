/** list_email_events (Turnkey's listEmailEvents): what happened to the emails sent to one address. */
import { z } from 'zod'
import { PaginationOptions } from '../common.js'
import { defineQuery } from '../operation.js'

/** The event types the hosted service names; Sigil's outbox records Send, DeliveryDelay and Bounce. */
export const EmailEventType = z.enum(['Send', 'Delivery', 'Bounce', 'DeliveryDelay', 'Complaint'])

export const EmailEventDetails = z.object({
  bounceType: z.string().optional(),
  bounceSubType: z.string().optional(),
  diagnosticCode: z.string().optional(),
  deliverySmtpResponse: z.string().optional(),
  deliveryProcessingTimeMillis: z.string().optional(),
  deliveryDelayType: z.string().optional(),
  complaintFeedbackType: z.string().optional(),
})

export const EmailEvent = z.object({
  id: z.string(),
  organizationId: z.string(),
  messageId: z.string(),
  eventType: z.string(),
  fromAddress: z.string(),
  toAddress: z.string(),
  /** Millisecond epoch as a decimal string. */
  timestamp: z.string(),
  createdAt: z.string(),
  details: EmailEventDetails,
})

/** The organization's email events for `email`, optionally of one type, newest first → `{emailEvents}`. */
export const listEmailEvents = defineQuery({
  name: 'list_email_events',
  path: '/public/v1/query/list_email_events',
  request: z.object({
    organizationId: z.string().min(1, { error: 'required' }),
    email: z.email({ error: 'must be an email address' }).max(320, { error: 'at most 320 characters' }),
    eventType: EmailEventType.optional(),
    paginationOptions: PaginationOptions.optional(),
  }),
  response: z.object({ emailEvents: z.array(EmailEvent) }),
})
