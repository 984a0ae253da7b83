/**
 * A user's OAuth providers (the OIDC identities they log in with: issuer, audience, subject), read
 * and deleted within one organization so an id of another organization reads as absent.
 */
import type { Sql } from './sql.js'
import { toTimestamp } from './time.js'
import type { OauthProviderRow } from './users.js'

/** The organization's OAuth providers, of one user when `userId` is given; oldest first. */
export async function listOauthProviders(sql: Sql, orgId: string, userId?: string): Promise<OauthProviderRow[]> {
  return userId === undefined
    ? await sql.query<OauthProviderRow>('SELECT * FROM oauth_providers WHERE organization_id = $1 ORDER BY created_at, id', [orgId])
    : await sql.query<OauthProviderRow>(
        'SELECT * FROM oauth_providers WHERE organization_id = $1 AND user_id = $2 ORDER BY created_at, id',
        [orgId, userId],
      )
}

/** Deletes one OAuth provider of the user; false when the user has none with this id. */
export async function deleteUserOauthProvider(sql: Sql, userId: string, providerId: string): Promise<boolean> {
  const rows = await sql.query('DELETE FROM oauth_providers WHERE id = $1 AND user_id = $2 RETURNING id', [providerId, userId])
  return rows.length > 0
}

/** The wire record (hosted OpenAPI v1OauthProvider). */
export function oauthProviderToWire(p: OauthProviderRow) {
  return {
    providerId: p.id,
    providerName: p.provider_name,
    issuer: p.issuer,
    audience: p.audience,
    subject: p.subject,
    createdAt: toTimestamp(Number(p.created_at)),
    updatedAt: toTimestamp(Number(p.updated_at)),
  }
}
