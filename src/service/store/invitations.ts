/** Invitations (migration 013): people invited by email, with their pre-allocated user id and hashed code. */
import type { Sql } from './sql.js'
import { toTimestamp } from './time.js'

export type InvitationStatus = 'INVITATION_STATUS_CREATED' | 'INVITATION_STATUS_ACCEPTED' | 'INVITATION_STATUS_REVOKED'

export type InvitationRow = {
  id: string
  organization_id: string
  receiver_user_name: string
  receiver_email: string
  receiver_user_tags: string[]
  access_type: string
  sender_user_id: string
  user_id: string
  code_hash: string
  status: InvitationStatus
  expires_at: number
  created_at: number
  updated_at: number
}

export async function insertInvitation(sql: Sql, i: Omit<InvitationRow, 'status' | 'updated_at'>): Promise<void> {
  await sql.query(
    `INSERT INTO invitations (id, organization_id, receiver_user_name, receiver_email, receiver_user_tags, access_type,
                              sender_user_id, user_id, code_hash, status, expires_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'INVITATION_STATUS_CREATED', $10, $11, $11)`,
    [
      i.id,
      i.organization_id,
      i.receiver_user_name,
      i.receiver_email,
      JSON.stringify(i.receiver_user_tags),
      i.access_type,
      i.sender_user_id,
      i.user_id,
      i.code_hash,
      i.expires_at,
      i.created_at,
    ],
  )
}

function fromDb(row: InvitationRow): InvitationRow {
  return { ...row, expires_at: Number(row.expires_at), created_at: Number(row.created_at), updated_at: Number(row.updated_at) }
}

/** The organization's invitation, row-locked for the rest of the transaction (one accept wins). */
export async function lockInvitation(sql: Sql, orgId: string, id: string): Promise<InvitationRow | undefined> {
  const [row] = await sql.query<InvitationRow>('SELECT * FROM invitations WHERE id = $1 AND organization_id = $2 FOR UPDATE', [id, orgId])
  return row && fromDb(row)
}

/** True when the organization has an open (CREATED) invitation to this lower-case email. */
export async function openInvitationExists(sql: Sql, orgId: string, email: string): Promise<boolean> {
  const rows = await sql.query<{ id: string }>(
    `SELECT id FROM invitations WHERE organization_id = $1 AND receiver_email = $2 AND status = 'INVITATION_STATUS_CREATED'`,
    [orgId, email],
  )
  return rows.length > 0
}

export async function setInvitationStatus(sql: Sql, id: string, status: InvitationStatus, now: number): Promise<void> {
  await sql.query('UPDATE invitations SET status = $2, updated_at = $3 WHERE id = $1', [id, status, now])
}

/** Every invitation of the organization, oldest first, whatever its status. */
export async function listInvitations(sql: Sql, orgId: string): Promise<InvitationRow[]> {
  const rows = await sql.query<InvitationRow>('SELECT * FROM invitations WHERE organization_id = $1 ORDER BY created_at, id', [orgId])
  return rows.map(fromDb)
}

/** The hosted v1Invitation record. */
export function invitationToWire(i: InvitationRow) {
  return {
    invitationId: i.id,
    receiverUserName: i.receiver_user_name,
    receiverEmail: i.receiver_email,
    receiverUserTags: i.receiver_user_tags,
    accessType: i.access_type,
    status: i.status,
    createdAt: toTimestamp(i.created_at),
    updatedAt: toTimestamp(i.updated_at),
    senderUserId: i.sender_user_id,
  }
}
