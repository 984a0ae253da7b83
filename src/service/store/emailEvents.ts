/** What the outbox did with each email, per organization (migrations/026_email_events.sql). */
import { type PageOptions, readPage } from './page.js'
import type { Sql } from './sql.js'

/** The event types the outbox records. */
export type EmailEventType = 'Send' | 'DeliveryDelay' | 'Bounce'

/** Detail fields as the hosted `v1EmailEventDetails` names them. */
export type EmailEventDetails = {
  bounceType?: string
  bounceSubType?: string
  diagnosticCode?: string
  deliverySmtpResponse?: string
  deliveryProcessingTimeMillis?: string
  deliveryDelayType?: string
}

export type EmailEventRow = {
  id: string
  organization_id: string
  message_id: string
  event_type: EmailEventType
  from_address: string
  to_address: string
  details: EmailEventDetails | string
  created_at: number | string
}

/** Records one event of message `messageId` (no-op for a message queued outside any organization). */
export async function insertEmailEvent(
  sql: Sql,
  e: {
    organizationId: string | null
    messageId: string
    type: EmailEventType
    from: string
    to: string
    details?: EmailEventDetails
    now: number
  },
): Promise<void> {
  if (!e.organizationId) return
  await sql.query(
    `INSERT INTO email_events (id, organization_id, message_id, event_type, from_address, to_address, details, created_at)
     VALUES ($1, $2, $3, $4, $5, lower($6), $7, $8)`,
    [crypto.randomUUID(), e.organizationId, e.messageId, e.type, e.from, e.to, JSON.stringify(e.details ?? {}), e.now],
  )
}

/** A page of the organization's events for one recipient (any case), optionally of one type, newest first. */
export async function listEmailEvents(
  sql: Sql,
  organizationId: string,
  email: string,
  eventType: string | undefined,
  page: PageOptions | undefined,
): Promise<EmailEventRow[]> {
  const where = ['e.organization_id = $1', 'e.to_address = lower($2)']
  const params: unknown[] = [organizationId, email]
  if (eventType !== undefined) {
    params.push(eventType)
    where.push(`e.event_type = $${params.length}`)
  }
  return readPage<EmailEventRow>(
    sql,
    { select: 'SELECT e.* FROM email_events e', where, params },
    {
      columns: ['e.created_at', 'e.id'],
      order: 'DESC',
      noun: 'email event',
      keyOf: async (id) => {
        const [row] = await sql.query<{ created_at: number; id: string }>(
          'SELECT created_at, id FROM email_events WHERE id = $1 AND organization_id = $2 AND to_address = lower($3)',
          [id, organizationId, email],
        )
        return row && [row.created_at, row.id]
      },
    },
    page,
  )
}
