-- A user's email or phone counts for login, account lookup and recovery only
-- once verified: proven by a verification token, or set by the root organization's users (the
-- operator, whose sign-up proves it). A contact anyone else set without proof is stored unverified
-- and found by nothing, so a login lands only in the account whose contact was proven.
ALTER TABLE users ADD COLUMN email_verified boolean NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN phone_verified boolean NOT NULL DEFAULT false;

-- Existing contacts count as before, except one a user of its own organization set without a
-- verification token (update_user_email / update_user_phone_number / update_user).
UPDATE users u SET email_verified = true WHERE u.user_email IS NOT NULL AND NOT EXISTS (
  SELECT 1 FROM activities a
   WHERE a.status = 'ACTIVITY_STATUS_COMPLETED' AND a.organization_id = u.organization_id
     AND a.type IN ('ACTIVITY_TYPE_UPDATE_USER_EMAIL', 'ACTIVITY_TYPE_UPDATE_USER')
     AND a.intent ->> 'userId' = u.id AND coalesce(a.intent ->> 'userEmail', '') <> ''
     AND a.intent ->> 'verificationToken' IS NULL);
UPDATE users u SET phone_verified = true WHERE u.user_phone_number IS NOT NULL AND NOT EXISTS (
  SELECT 1 FROM activities a
   WHERE a.status = 'ACTIVITY_STATUS_COMPLETED' AND a.organization_id = u.organization_id
     AND a.type IN ('ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER', 'ACTIVITY_TYPE_UPDATE_USER')
     AND a.intent ->> 'userId' = u.id AND coalesce(a.intent ->> 'userPhoneNumber', '') <> ''
     AND a.intent ->> 'verificationToken' IS NULL);

CREATE INDEX users_email_verified ON users (lower(user_email)) WHERE email_verified;
CREATE INDEX users_phone_verified ON users (user_phone_number) WHERE phone_verified;
