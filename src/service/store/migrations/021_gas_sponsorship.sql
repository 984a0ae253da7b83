-- Gas sponsorship limits (upsert_gas_usage_config / get_gas_usage) and the sponsored sends they count.
-- Money is integer micro-USD (1 USD = 1,000,000). One config per organization (the billing
-- organization: its own sponsored sends and those of its direct sub-organizations are counted
-- against it).
CREATE TABLE gas_usage_configs (
  id                              text PRIMARY KEY,
  organization_id                 text NOT NULL UNIQUE REFERENCES organizations(id) ON DELETE CASCADE,
  org_window_limit_micro_usd      bigint NOT NULL CHECK (org_window_limit_micro_usd >= 0),
  sub_org_window_limit_micro_usd  bigint NOT NULL CHECK (sub_org_window_limit_micro_usd >= 0),
  window_minutes                  integer NOT NULL CHECK (window_minutes BETWEEN 1 AND 43200),
  enabled                         boolean NOT NULL,
  created_at                      bigint NOT NULL,
  updated_at                      bigint NOT NULL
);

-- One row per admitted sponsored send: its estimate while in flight, the fee the sponsor paid once
-- settled. The native coin's USD price (the network's decimal string) and decimals are those of admission,
-- so the settled fee is converted at the price the estimate was admitted with.
CREATE TABLE sponsored_sends (
  send_id                   text PRIMARY KEY,
  organization_id           text NOT NULL,
  billing_organization_id   text NOT NULL,
  caip2                     text NOT NULL,
  native_usd                text NOT NULL,
  native_decimals           integer NOT NULL,
  estimate_micro_usd        bigint NOT NULL,
  fee_wei                   numeric,
  fee_micro_usd             bigint,
  admitted_at               bigint NOT NULL,
  settled_at                bigint
);
CREATE INDEX sponsored_sends_billing ON sponsored_sends (billing_organization_id, admitted_at);
CREATE INDEX sponsored_sends_org ON sponsored_sends (organization_id, admitted_at);
