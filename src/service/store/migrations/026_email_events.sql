-- What the outbox did with each email (list_email_events), per organization: the organization whose
-- activity queued it is kept on the message. Events: Send (the SMTP server accepted it, or it went to
-- the dev mailbox), DeliveryDelay (an attempt failed and will be retried), Bounce (refused for good:
-- a permanent SMTP answer, or the last retry failed). `to_address` is lower case.
ALTER TABLE messages ADD COLUMN organization_id text;
CREATE TABLE email_events (
  id                 text PRIMARY KEY,
  organization_id    text NOT NULL,
  message_id         text NOT NULL,
  event_type         text NOT NULL CHECK (event_type IN ('Send', 'DeliveryDelay', 'Bounce')),
  from_address       text NOT NULL,
  to_address         text NOT NULL,
  details            jsonb NOT NULL DEFAULT '{}',
  created_at         bigint NOT NULL
);
CREATE INDEX email_events_recipient ON email_events (organization_id, to_address, created_at DESC, id DESC);
