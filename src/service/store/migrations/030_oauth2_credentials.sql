-- OAuth 2.0 credentials (create/update/delete_oauth2_credential, oauth2_authenticate): a provider's
-- client id and secret per organization. `client_secret_sealed` is the secret sealed under the
-- master key (purpose bound to the row); `encrypted_client_secret` is the ciphertext the client sent
-- (readable only with the service's key), answered back as the hosted service does.
CREATE TABLE oauth2_credentials (
  id                      text PRIMARY KEY,
  organization_id         text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  provider                text NOT NULL,
  client_id               text NOT NULL,
  encrypted_client_secret text NOT NULL,
  client_secret_sealed    text NOT NULL,
  created_at              bigint NOT NULL,
  updated_at              bigint NOT NULL
);
CREATE INDEX oauth2_credentials_org ON oauth2_credentials (organization_id, created_at);
