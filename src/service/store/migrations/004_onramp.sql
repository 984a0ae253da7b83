-- Fiat on-ramp provider credentials and on-ramp transactions.
-- Provider secrets are sealed with the master key (store/secrets.ts); never stored in plaintext.

CREATE TABLE fiat_onramp_credentials (
  id                      text PRIMARY KEY,
  organization_id         text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  provider                text NOT NULL,           -- FIAT_ON_RAMP_PROVIDER_*
  sandbox_mode            boolean NOT NULL,
  project_id              text,
  publishable_api_key     text NOT NULL,
  secret_api_key_sealed   text NOT NULL,           -- seal(secret, 'onramp-credential:<id>:secret')
  private_api_key_sealed  text,                    -- seal(key, 'onramp-credential:<id>:private')
  created_at              bigint NOT NULL,
  updated_at              bigint NOT NULL,
  UNIQUE (organization_id, provider, sandbox_mode)
);

CREATE TABLE onramp_transactions (
  id                        text PRIMARY KEY,
  organization_id           text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  activity_id               text NOT NULL,
  provider                  text NOT NULL,
  sandbox_mode              boolean NOT NULL,
  hosted_by_sigil           boolean NOT NULL,      -- true: the built-in sandbox provider page
  credential_id             text,                  -- the credential used, if any (kept after deletion)
  wallet_address            text NOT NULL,
  network                   text NOT NULL,
  crypto_currency           text NOT NULL,
  fiat_currency             text,
  fiat_amount               text,
  payment_method            text,
  country_code              text,
  country_subdivision_code  text,
  status                    text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'COMPLETED', 'FAILED')),
  tx_hash                   text,
  created_at                bigint NOT NULL,
  updated_at                bigint NOT NULL
);
CREATE INDEX onramp_transactions_org ON onramp_transactions (organization_id);
