-- MFA policies (create/update/delete_mfa_policy, get_mfa_policy/ies, get_mfa_status): per user; the
-- first (by order) whose condition holds for an activity the user submits makes it wait
-- (ACTIVITY_STATUS_AUTHENTICATORS_NEEDED) until each step is proven by another credential of theirs.
-- activity_mfa keeps the steps an activity needs, as they were when it was submitted.
CREATE TABLE mfa_policies (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id          text NOT NULL,
  name             text NOT NULL,
  condition        text NOT NULL,
  required_methods jsonb NOT NULL,
  eval_order       bigint NOT NULL,
  notes            text,
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL
);
CREATE INDEX mfa_policies_user ON mfa_policies (organization_id, user_id, eval_order, created_at, id);

CREATE TABLE activity_mfa (
  activity_id      text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id          text NOT NULL,
  mfa_policy_id    text NOT NULL,
  required_methods jsonb NOT NULL,
  -- the credentials that stamped the activity and its approvals so far, in order: [{type, id}]
  proven           jsonb NOT NULL,
  created_at       bigint NOT NULL
);
