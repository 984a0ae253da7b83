-- HD wallets, their accounts and per-user import keys.
-- Secrets are sealed with the master key (store/secrets.ts), the purpose string bound as AAD:
--   wallets.mnemonic_enc             'wallet-mnemonic:<walletId>'
--   wallet_accounts.private_key_enc  'wallet-account-key:<walletAccountId>'
--   wallet_import_keys.private_key_enc 'wallet-import-key:<organizationId>:<userId>'

CREATE TABLE wallets (
  seq                bigserial UNIQUE,
  id                 text PRIMARY KEY,
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name               text NOT NULL,
  mnemonic_enc       text NOT NULL,
  imported           boolean NOT NULL DEFAULT false,
  exported           boolean NOT NULL DEFAULT false,
  created_at         bigint NOT NULL,
  updated_at         bigint NOT NULL
);
CREATE INDEX wallets_org ON wallets (organization_id, seq);

CREATE TABLE wallet_accounts (
  seq                bigserial UNIQUE,
  id                 text PRIMARY KEY,
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  wallet_id          text NOT NULL REFERENCES wallets(id) ON DELETE CASCADE,
  curve              text NOT NULL,
  path_format        text NOT NULL,
  path               text NOT NULL,           -- as submitted
  path_norm          text NOT NULL,           -- canonical form (' for hardened), for uniqueness
  address_format     text NOT NULL,
  address            text NOT NULL,
  public_key         text NOT NULL,           -- lowercase hex: 33 B compressed (ECDSA) or 32 B (ed25519)
  name               text,
  private_key_enc    text NOT NULL,
  created_at         bigint NOT NULL,
  updated_at         bigint NOT NULL,
  UNIQUE (wallet_id, curve, path_norm, address_format)
);
CREATE INDEX wallet_accounts_wallet ON wallet_accounts (wallet_id, seq);
CREATE INDEX wallet_accounts_org_seq ON wallet_accounts (organization_id, seq);
CREATE INDEX wallet_accounts_org_address ON wallet_accounts (organization_id, address);
CREATE INDEX wallet_accounts_org_address_lower ON wallet_accounts (organization_id, lower(address));

CREATE TABLE wallet_import_keys (
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id            text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  public_key         text NOT NULL,           -- 65 B uncompressed hex, the bundle's targetPublic
  private_key_enc    text NOT NULL,
  created_at         bigint NOT NULL,
  PRIMARY KEY (organization_id, user_id)
);
