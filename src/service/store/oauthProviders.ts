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
 * nearest first (oldest provider first at one depth); undefined when none. Verified links only: a
 * provider stated by claims alone (`verified` false) never logs anyone in. Found from the identity
 * up (index `oauth_providers_identity`, then parent links to `orgId`), not from `orgId` down: a
 * login reads a few rows whatever the size of the tree (as `findUserInTreeByContact`).
 */
export async function findUserInTreeByOauthIdentity(sql: Sql, orgId: string, id: OidcIdentity): Promise<UserRow | undefined> {
  const [row] = await sql.query<UserRow & { depth: number }>(
    `WITH RECURSIVE up(provider_id, user_id, org_id, depth) AS (
       SELECT p.id, p.user_id, p.organization_id, 0 FROM oauth_providers p
         JOIN organizations o0 ON o0.id = p.organization_id AND o0.deleted_at IS NULL
        WHERE p.issuer = $2 AND p.subject = $3 AND p.audience = $4 AND p.verified
       UNION ALL
       SELECT up.provider_id, up.user_id, o.parent_id, up.depth + 1 FROM up JOIN organizations o ON o.id = up.org_id
        WHERE up.org_id <> $1 AND o.parent_id IS NOT NULL
     )
     SELECT u.*, up.depth FROM up JOIN users u ON u.id = up.user_id JOIN oauth_providers p ON p.id = up.provider_id
      WHERE up.org_id = $1
      ORDER BY up.depth, p.created_at, p.id LIMIT 1`,
    [orgId, id.iss, id.sub, id.aud],
  )
  return row
}
