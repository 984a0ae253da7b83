-- OTP attempts are counted on the OTP row, one atomic UPDATE per attempt
-- committed on its own before the attempt runs (src/service/otp/consume.ts), so concurrent wrong
-- codes cannot race past the limit; and each OTP records the path it was started for
-- (`init_otp`: spent by verify_otp; `init_otp_auth`: by otp_auth or verify_otp V1).
ALTER TABLE otps ADD COLUMN attempts integer NOT NULL DEFAULT 0;
ALTER TABLE otps ADD COLUMN path text NOT NULL DEFAULT 'init_otp_auth';

-- OTPs still open carry over the wrong codes counted the old way (FAILED activities naming them),
-- and the path of the activity that started them.
UPDATE otps o SET attempts = (
  SELECT count(*)::int FROM activities a
   WHERE a.intent->>'otpId' = o.id AND a.status = 'ACTIVITY_STATUS_FAILED' AND a.failure->>'message' = 'Invalid OTP code'
) WHERE o.used_at IS NULL;
UPDATE otps o SET path = 'init_otp' WHERE EXISTS (
  SELECT 1 FROM activities a
   WHERE a.type IN ('ACTIVITY_TYPE_INIT_OTP', 'ACTIVITY_TYPE_INIT_OTP_V2', 'ACTIVITY_TYPE_INIT_OTP_V3')
     AND a.result->>'otpId' = o.id
);

-- The old count's index is no longer read.
DROP INDEX IF EXISTS activities_otp_id;

-- Signed admin requests (POST /admin/v1/backup) are single use, so a captured one cannot be
-- replayed: each signed body accepted is kept until its timestamp leaves the window, and the same
-- bytes again are refused.
CREATE TABLE used_admin_stamps (
  stamp_hash         text PRIMARY KEY,      -- hex sha256 of the signed request body
  expires_at         bigint NOT NULL
);
CREATE INDEX used_admin_stamps_expires ON used_admin_stamps (expires_at);

-- A verification token not bound to a key is a bearer secret, so nothing that serves activities
-- again may hold it: stored verify_otp results keep only its sha256
-- (src/service/activities/shared/storedResult.ts). Rows stored before are rewritten.
UPDATE activities a SET result = jsonb_set(
    a.result, '{verificationToken}',
    to_jsonb('sha256:' || encode(sha256(convert_to(a.result->>'verificationToken', 'UTF8')), 'hex')))
 WHERE a.type IN ('ACTIVITY_TYPE_VERIFY_OTP', 'ACTIVITY_TYPE_VERIFY_OTP_V2')
   AND a.result ? 'verificationToken'
   AND a.result->>'verificationToken' NOT LIKE 'sha256:%'
   AND coalesce((
     SELECT convert_from(decode(rpad(translate(p, '-_', '+/'), ((length(p) + 3) / 4) * 4, '='), 'base64'), 'UTF8')::jsonb->>'public_key'
       FROM split_part(a.result->>'verificationToken', '.', 2) AS p
   ), '') = '';
