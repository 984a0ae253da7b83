-- Invitations: a person invited by email to join an organization. The user id is
-- allocated at creation (the email carries it); the one-time code mailed with it (the WebAuthn
-- challenge of the passkey that accepts) is stored only as an HMAC. Rows stay after acceptance or
-- revocation (get_organization lists every status).
CREATE TABLE invitations (
  id                  text PRIMARY KEY,
  organization_id     text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  receiver_user_name  text NOT NULL,
  receiver_email      text NOT NULL,            -- lower case
  receiver_user_tags  jsonb NOT NULL DEFAULT '[]',
  access_type         text NOT NULL,
  sender_user_id      text NOT NULL,
  user_id             text NOT NULL,            -- the invitee's user id once accepted
  code_hash           text NOT NULL,
  status              text NOT NULL CHECK (status IN ('INVITATION_STATUS_CREATED', 'INVITATION_STATUS_ACCEPTED', 'INVITATION_STATUS_REVOKED')),
  expires_at          bigint NOT NULL,
  created_at          bigint NOT NULL,
  updated_at          bigint NOT NULL
);
CREATE INDEX invitations_org ON invitations (organization_id, created_at);
-- One open invitation per organization and email.
CREATE UNIQUE INDEX invitations_open_email ON invitations (organization_id, receiver_email) WHERE status = 'INVITATION_STATUS_CREATED';
