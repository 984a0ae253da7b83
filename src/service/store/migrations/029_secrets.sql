-- Secrets (init_import_secrets, import_secrets, export_secrets, delete_secrets, list_secrets).
-- secret_import_keys: the single-use ingress keys init_import_secrets minted, each announced in a
-- signed target bundle; its private half sealed under the master key
-- ('secret-import-key:<organizationId>:<publicKey>'), deleted when import_secrets uses it.
-- secrets: the values, sealed under the master key ('secret-value:<organizationId>:<secretId>', so a
-- sealed value cannot be moved to another secret or organization), with their policy-visible static
-- properties; names are unique in the organization when given.
CREATE TABLE secret_import_keys (
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  public_key      text NOT NULL,           -- 65 B uncompressed hex, the bundle's targetPublic
  user_id         text NOT NULL,           -- who asked for it: only they may import with it
  private_key_enc text NOT NULL,
  created_at      bigint NOT NULL,
  PRIMARY KEY (organization_id, public_key)
);

CREATE TABLE secrets (
  id                text PRIMARY KEY,
  organization_id   text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name              text,
  static_properties jsonb NOT NULL,
  value_enc         text NOT NULL,
  created_at        bigint NOT NULL
);
CREATE UNIQUE INDEX secrets_name ON secrets (organization_id, name) WHERE name IS NOT NULL;
CREATE INDEX secrets_organization ON secrets (organization_id, created_at, id);
