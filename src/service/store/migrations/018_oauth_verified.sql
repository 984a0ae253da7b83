-- An OAuth provider logs its user in only when its identity was proven by a verified ID token, so
-- nobody can attach another person's identity to an account and receive that person's logins.
-- `verified` is false for an identity stated by `oidcClaims` alone (kept as a record: the hosted
-- shape of create_sub_organization / create_users has it), and the login lookups (oauth,
-- oauth_login, stamp_login by OIDC, get_sub_org_ids by OIDC_TOKEN) read verified rows only.
ALTER TABLE oauth_providers ADD COLUMN verified boolean NOT NULL DEFAULT false;

-- Rows stored before: made from a token unless the completed activity that created them stated their
-- identity by claims alone (an `oauthProviders` item with `oidcClaims` and no `oidcToken`) for their
-- user (its id in that activity's intent, as create_oauth_providers' userId, or in its result, as the
-- rootUserIds / userIds of the users it created).
UPDATE oauth_providers SET verified = true;

UPDATE oauth_providers p SET verified = false
  FROM (
    SELECT c.claim ->> 'iss' AS iss, c.claim ->> 'sub' AS sub, c.claim ->> 'aud' AS aud,
           a.intent::text || ' ' || coalesce(a.result::text, '') AS ids
      FROM activities a
     CROSS JOIN LATERAL jsonb_path_query(
             a.intent, 'lax $.**.oauthProviders[*] ? (exists (@.oidcClaims) && !exists (@.oidcToken)).oidcClaims') AS c(claim)
     WHERE a.status = 'ACTIVITY_STATUS_COMPLETED'
  ) s
 WHERE p.issuer = s.iss AND p.subject = s.sub AND p.audience = s.aud AND strpos(s.ids, p.user_id) > 0;

-- The login lookups' index: verified identities only.
DROP INDEX IF EXISTS oauth_providers_identity;
CREATE INDEX oauth_providers_identity ON oauth_providers (issuer, subject) WHERE verified;
