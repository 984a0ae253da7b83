/**
 * A user's OAuth providers (the OIDC identities they log in with: issuer, audience, subject), read
 * and deleted within one organization so an id of another organization reads as absent.
 */
import type { Sql } from './sql.js'
import { toTimestamp } from './time.js'
import type { OauthProviderRow, UserRow } from './users.js'

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

/** An OIDC identity: a verified ID token's issuer, audience and subject. */
export type OidcIdentity = { iss: string; aud: string; sub: string }

/**
 * The user with this OAuth identity in the organization or its sub-organizations (any depth), the
 * nearest first; undefined when none.
 */
export async function findUserInTreeByOauthIdentity(sql: Sql, orgId: string, id: OidcIdentity): Promise<UserRow | undefined> {
  const [row] = await sql.query<UserRow & { depth: number }>(
    `WITH RECURSIVE down(id, depth) AS (
       SELECT id, 0 FROM organizations WHERE id = $1 AND deleted_at IS NULL
       UNION ALL
       SELECT o.id, down.depth + 1 FROM organizations o JOIN down ON o.parent_id = down.id WHERE o.deleted_at IS NULL
     )
     SELECT u.*, down.depth FROM oauth_providers p
       JOIN down ON p.organization_id = down.id
       JOIN users u ON u.id = p.user_id
      WHERE p.issuer = $2 AND p.subject = $3 AND p.audience = $4
      ORDER BY down.depth, p.created_at, p.id LIMIT 1`,
    [orgId, id.iss, id.sub, id.aud],
  )
  return row
}
