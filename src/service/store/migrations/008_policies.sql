-- Policies: an organization's policies in the hosted policy language, with their
-- expressions as written (parsed at create/update time; an absent condition or consensus is '',
-- an absent time expression NULL). policy_evaluations: what the engine decided for each vote of an
-- activity (get_policy_evaluations), one row per evaluation, `evaluations` the JSON array of
-- {policyId, outcome}. No foreign key to activities: the activity row is written as its
-- transaction's last statement, after its evaluation.
CREATE TABLE policies (
  seq              bigserial UNIQUE,            -- creation order (create_policies makes several at one time)
  id               text PRIMARY KEY,            -- policyId
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name             text NOT NULL,
  effect           text NOT NULL CHECK (effect IN ('EFFECT_ALLOW', 'EFFECT_DENY')),
  condition        text NOT NULL,
  consensus        text NOT NULL,
  time_expr        text,
  notes            text NOT NULL,
  created_at       bigint NOT NULL,
  updated_at       bigint NOT NULL
);
CREATE INDEX policies_org ON policies (organization_id, seq);

CREATE TABLE policy_evaluations (
  seq              bigserial UNIQUE,            -- recording order
  id               text PRIMARY KEY,
  activity_id      text NOT NULL,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  vote_id          text NOT NULL,               -- the vote evaluated ('' when the submitter cast none)
  evaluations      jsonb NOT NULL,              -- [{"policyId": …, "outcome": "OUTCOME_…"}]
  created_at       bigint NOT NULL
);
CREATE INDEX policy_evaluations_activity ON policy_evaluations (activity_id, seq);
