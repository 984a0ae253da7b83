-- Session profiles (create_session_profile / get_session_profile(s)): immutable; a login naming one
-- issues a session whose key carries it (api_keys.session_profile_id), and every activity signed
-- with that key must satisfy the profile's scope (policy language). Deleting a profile is not an
-- operation; an organization's go with it (delete_sub_organization purges them).
CREATE TABLE session_profiles (
  id                 text PRIMARY KEY,
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name               text NOT NULL,
  scope              text NOT NULL,
  expiration_seconds bigint,
  notes              text,
  created_at         bigint NOT NULL,
  updated_at         bigint NOT NULL
);
CREATE INDEX session_profiles_organization ON session_profiles (organization_id, created_at, id);

ALTER TABLE api_keys ADD COLUMN session_profile_id text;
