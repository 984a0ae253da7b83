-- Organizations, users, credentials, activities and votes.
-- Timestamps are milliseconds since the epoch (bigint): one clock, no time zones.

CREATE TABLE organizations (
  id                 text PRIMARY KEY,
  name               text NOT NULL,
  parent_id          text REFERENCES organizations(id),
  is_root            boolean NOT NULL DEFAULT false,
  quorum_threshold   integer NOT NULL DEFAULT 1 CHECK (quorum_threshold >= 1),
  allowed_origins    jsonb NOT NULL DEFAULT '[]',
  created_at         bigint NOT NULL,
  updated_at         bigint NOT NULL
);
CREATE UNIQUE INDEX organizations_one_root ON organizations (is_root) WHERE is_root;
CREATE INDEX organizations_parent ON organizations (parent_id);

CREATE TABLE organization_features (
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name               text NOT NULL,
  value              text NOT NULL DEFAULT '',
  PRIMARY KEY (organization_id, name)
);

CREATE TABLE users (
  id                 text PRIMARY KEY,
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_name          text NOT NULL,
  user_email         text,
  user_phone_number  text,
  user_tags          jsonb NOT NULL DEFAULT '[]',
  created_at         bigint NOT NULL,
  updated_at         bigint NOT NULL
);
CREATE INDEX users_org ON users (organization_id);
CREATE INDEX users_email ON users (lower(user_email));
CREATE INDEX users_phone ON users (user_phone_number);

CREATE TABLE quorum_members (
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id            text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  PRIMARY KEY (organization_id, user_id)
);

-- API keys and every other key-pair credential (session, OTP, recovery keys).
CREATE TABLE api_keys (
  id                 text PRIMARY KEY,
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id            text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name               text NOT NULL,
  public_key         text NOT NULL,           -- lowercase hex as registered (compressed for EC keys)
  curve_type         text NOT NULL,           -- API_KEY_CURVE_P256 | _SECP256K1 | _ED25519
  credential_type    text NOT NULL,           -- CREDENTIAL_TYPE_*
  expiration_seconds text,
  expires_at         bigint,                  -- null: never
  created_at         bigint NOT NULL,
  updated_at         bigint NOT NULL
);
CREATE INDEX api_keys_public_key ON api_keys (public_key);
CREATE INDEX api_keys_user ON api_keys (user_id);

CREATE TABLE authenticators (
  id                 text PRIMARY KEY,
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id            text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name               text NOT NULL,
  credential_id      text NOT NULL,           -- base64url of the raw credential id
  public_key         text NOT NULL,           -- hex of the COSE public key
  sign_count         bigint NOT NULL DEFAULT 0,
  transports         jsonb NOT NULL DEFAULT '[]',
  aaguid             text NOT NULL DEFAULT '',
  attestation_type   text NOT NULL DEFAULT '',
  created_at         bigint NOT NULL,
  updated_at         bigint NOT NULL
);
CREATE INDEX authenticators_credential ON authenticators (credential_id);
CREATE INDEX authenticators_user ON authenticators (user_id);

CREATE TABLE oauth_providers (
  id                 text PRIMARY KEY,
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id            text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  provider_name      text NOT NULL,
  issuer             text NOT NULL,
  audience           text NOT NULL,
  subject            text NOT NULL,
  created_at         bigint NOT NULL,
  updated_at         bigint NOT NULL
);
CREATE INDEX oauth_providers_user ON oauth_providers (user_id);

CREATE TABLE activities (
  seq                bigserial UNIQUE,
  id                 text PRIMARY KEY,
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  quorum_org_id      text NOT NULL,           -- organization whose root quorum decides
  submitter_user_id  text NOT NULL,
  submitter_org_id   text NOT NULL,
  type               text NOT NULL,
  status             text NOT NULL,
  intent_key         text NOT NULL,
  intent             jsonb NOT NULL,          -- the parameters as submitted
  result_key         text NOT NULL,
  result             jsonb,
  failure            jsonb,
  app_proofs         jsonb NOT NULL DEFAULT '[]',
  generate_app_proofs boolean NOT NULL DEFAULT false,
  fingerprint        text NOT NULL UNIQUE,
  body               text NOT NULL,           -- exact submitted bytes, re-executed on consensus
  timestamp_ms       text NOT NULL,
  created_at         bigint NOT NULL,
  updated_at         bigint NOT NULL
);
CREATE INDEX activities_org_seq ON activities (organization_id, seq DESC);

CREATE TABLE votes (
  id                 text PRIMARY KEY,
  activity_id        text NOT NULL REFERENCES activities(id) ON DELETE CASCADE,
  user_id            text NOT NULL,
  selection          text NOT NULL,           -- VOTE_SELECTION_APPROVED | _REJECTED
  message            text NOT NULL,
  public_key         text NOT NULL,
  signature          text NOT NULL,
  scheme             text NOT NULL,
  created_at         bigint NOT NULL,
  UNIQUE (activity_id, user_id)
);

-- The service's own keys (bundle signer, session notarizer, OTP verifier, app proofs,
-- on-ramp encryption). Private halves encrypted with the master key.
CREATE TABLE service_keys (
  name               text PRIMARY KEY,
  public_key         text NOT NULL,
  private_key_enc    text NOT NULL,
  created_at         bigint NOT NULL
);
