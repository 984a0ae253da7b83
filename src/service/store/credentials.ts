/**
 * Reads of an organization's credentials: API keys and passkeys by
 * id or by user, always within one organization so an id of another organization reads as absent.
 */
import type { Sql } from './sql.js'
import { type ApiKeyRow, type AuthenticatorRow, byCreatedThenId } from './users.js'

export async function getOrgApiKey(sql: Sql, orgId: string, apiKeyId: string): Promise<ApiKeyRow | undefined> {
  const [row] = await sql.query<ApiKeyRow>('SELECT * FROM api_keys WHERE id = $1 AND organization_id = $2', [apiKeyId, orgId])
  return row
}

/** The organization's API keys, of one user when `userId` is given; oldest first. */
export async function listOrgApiKeys(sql: Sql, orgId: string, userId?: string): Promise<ApiKeyRow[]> {
  const rows =
    userId === undefined
      ? await sql.query<ApiKeyRow>('SELECT * FROM api_keys WHERE organization_id = $1', [orgId])
      : await sql.query<ApiKeyRow>('SELECT * FROM api_keys WHERE organization_id = $1 AND user_id = $2', [orgId, userId])
  return byCreatedThenId(rows)
}

export async function getOrgAuthenticator(sql: Sql, orgId: string, authenticatorId: string): Promise<AuthenticatorRow | undefined> {
  const [row] = await sql.query<AuthenticatorRow>('SELECT * FROM authenticators WHERE id = $1 AND organization_id = $2', [
    authenticatorId,
    orgId,
  ])
  return row
}

/** One user's passkeys, oldest first. */
export async function listUserAuthenticators(sql: Sql, orgId: string, userId: string): Promise<AuthenticatorRow[]> {
  return byCreatedThenId(
    await sql.query<AuthenticatorRow>('SELECT * FROM authenticators WHERE organization_id = $1 AND user_id = $2', [orgId, userId]),
  )
}
