-- OTPs, used verification tokens and the outgoing-message store.

-- One row per initiated OTP. The code itself is never stored: only an HMAC-SHA256 of it
-- keyed by a service secret (src/service/otp/code.ts).
CREATE TABLE otps (
  id                 text PRIMARY KEY,
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  otp_type           text NOT NULL,           -- OTP_TYPE_EMAIL | OTP_TYPE_SMS
  contact            text NOT NULL,           -- normalised: lowercase email or E.164 phone
  user_identifier    text,
  code_hash          text NOT NULL,
  code_length        integer NOT NULL,
  alphanumeric       boolean NOT NULL,
  expires_at         bigint NOT NULL,
  used_at            bigint,
  created_at         bigint NOT NULL
);
CREATE INDEX otps_contact_created ON otps (contact, created_at);
CREATE INDEX otps_identifier_created ON otps (user_identifier, created_at);

-- Wrong OTP attempts are counted from the FAILED activities that carry the otpId (their
-- effects roll back, the FAILED record stays): this index keeps that count cheap.
CREATE INDEX activities_otp_id ON activities ((intent->>'otpId'));

-- Verification tokens spent by otp_login / an attested stamp_login (single use).
CREATE TABLE used_verification_tokens (
  token_id           text PRIMARY KEY,
  used_at            bigint NOT NULL
);

-- Every outgoing email and SMS. Written inside the activity's transaction (so a rolled-back
-- activity sends nothing), delivered after commit by src/service/mail/outbox.ts with
-- retries; `delivery` is pending | sent | failed | mailbox. Doubles as the dev mailbox.
CREATE TABLE messages (
  id                 text PRIMARY KEY,
  channel            text NOT NULL,           -- email | sms
  to_address         text NOT NULL,
  from_address       text NOT NULL,
  reply_to           text,
  subject            text NOT NULL DEFAULT '',
  text_body          text NOT NULL,
  html_body          text NOT NULL DEFAULT '',
  delivery           text NOT NULL,
  attempts           integer NOT NULL DEFAULT 0,
  last_error         text,
  next_attempt_at    bigint NOT NULL,
  created_at         bigint NOT NULL
);
CREATE INDEX messages_pending ON messages (delivery, next_attempt_at);
CREATE INDEX messages_created ON messages (created_at DESC);
