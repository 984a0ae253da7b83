-- Webhooks: endpoints and their subscriptions, the outbox of events to deliver
-- (written in the transaction of the change it reports) and the delivery log (one row per attempt).
-- See src/service/webhooks/README.md.
CREATE TABLE webhook_endpoints (
  id                 text PRIMARY KEY,
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  url                text NOT NULL,
  name               text NOT NULL,
  is_active          boolean NOT NULL DEFAULT true,
  created_at         bigint NOT NULL,
  updated_at         bigint NOT NULL
);
CREATE INDEX webhook_endpoints_org ON webhook_endpoints (organization_id, created_at);

-- In the order the endpoint was created with; filters_json as written ('' when none).
CREATE TABLE webhook_subscriptions (
  endpoint_id        text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  position           integer NOT NULL,
  event_type         text NOT NULL,
  filters_json       text NOT NULL DEFAULT '',
  is_active          boolean NOT NULL DEFAULT true,
  PRIMARY KEY (endpoint_id, position)
);

-- One row per (event, endpoint). body: the exact bytes sent (signed per attempt with its timestamp).
CREATE TABLE webhook_outbox (
  id                 text PRIMARY KEY,
  event_id           text NOT NULL,
  endpoint_id        text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  organization_id    text NOT NULL,
  event_type         text NOT NULL,
  body               text NOT NULL,
  status             text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DELIVERED', 'DEAD')),
  attempts           integer NOT NULL DEFAULT 0,
  next_attempt_at    bigint NOT NULL,
  claimed_until      bigint NOT NULL DEFAULT 0,
  created_at         bigint NOT NULL,
  updated_at         bigint NOT NULL
);
CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_at, created_at) WHERE status = 'PENDING';
CREATE INDEX webhook_outbox_endpoint ON webhook_outbox (endpoint_id, created_at);

CREATE TABLE webhook_deliveries (
  id                 text PRIMARY KEY,
  outbox_id          text NOT NULL REFERENCES webhook_outbox(id) ON DELETE CASCADE,
  endpoint_id        text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  event_id           text NOT NULL,
  event_type         text NOT NULL,
  attempt            integer NOT NULL,
  status_code        integer,
  duration_ms        integer NOT NULL,
  error              text,
  outcome            text NOT NULL CHECK (outcome IN ('DELIVERED', 'RETRY', 'DEAD')),
  created_at         bigint NOT NULL
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at);

-- The service's webhook signing key (Ed25519; src/service/webhooks/signing.ts), the private half
-- sealed under the master key: one row, made on first start (a table so keys can rotate later).
CREATE TABLE webhook_signing_keys (
  key_id             text PRIMARY KEY,
  public_key         text NOT NULL,
  private_key_enc    text NOT NULL,
  created_at         bigint NOT NULL
);
