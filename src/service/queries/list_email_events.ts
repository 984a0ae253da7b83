import type { z } from 'zod'
import type { listEmailEvents } from '../../api/operations/list_email_events.js'
import { type EmailEventDetails, listEmailEvents as readEvents } from '../store/emailEvents.js'
import type { QueryHandler } from './types.js'

type Request = z.infer<typeof listEmailEvents.request>

/**
 * list_email_events: what the outbox did with the emails the organization's activities sent to
 * `email` (any case) — `Send` when the SMTP server accepted one (or it went to the dev mailbox),
 * `DeliveryDelay` for an attempt that failed and will be retried, `Bounce` when it was refused for
 * good (a permanent SMTP answer, or the last retry failed) — newest first, optionally of one
 * `eventType`, paginated as every list (`after`/`before` are event ids). No message text is ever listed.
 *
 * @throws INVALID_ARGUMENT when paginationOptions.after or paginationOptions.before names no entry of the list
 */
export const handler: QueryHandler<Request> = async ({ sql, organizationId }, req) => {
  const rows = await readEvents(sql, organizationId, req.email, req.eventType, req.paginationOptions)
  return {
    emailEvents: rows.map((r) => ({
      id: r.id,
      organizationId: r.organization_id,
      messageId: r.message_id,
      eventType: r.event_type,
      fromAddress: r.from_address,
      toAddress: r.to_address,
      timestamp: String(r.created_at),
      createdAt: String(r.created_at),
      details: (typeof r.details === 'string' ? JSON.parse(r.details) : r.details) as EmailEventDetails,
    })),
  }
}
