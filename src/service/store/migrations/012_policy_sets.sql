-- Compact evaluation records (bench/policy-submit.ts). An evaluation stored as its own
-- policy_evaluations row with a JSON array of {policyId, outcome} (~7.5 kB over 100 policies) cost
-- more per activity than evaluating the policies. Now:
-- * policy_sets: the policies a decision went over, once per version of the organization's
--   policies (migration 009), written once per version by each instance, in evaluation order;
-- * the evaluation lives on the vote it evaluated (every evaluation is of one vote): its id, the
--   set's version and one letter per policy of the set, in order (store/policies.ts OUTCOME_LETTERS),
--   written with the vote, so an activity policies decide costs no extra row.
-- Rows of policy_evaluations recorded before stay and are served as they are (listPolicyEvaluations).
CREATE TABLE policy_sets (
  version          text PRIMARY KEY,            -- organizations.policies_version when the set was read
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  policy_ids       jsonb NOT NULL,              -- ["<policyId>", …] in evaluation order
  created_at       bigint NOT NULL
);

ALTER TABLE votes ADD COLUMN evaluation_id text;
ALTER TABLE votes ADD COLUMN policy_set text;
ALTER TABLE votes ADD COLUMN outcomes text;
ALTER TABLE votes ADD CONSTRAINT votes_evaluation CHECK ((evaluation_id IS NULL) = (policy_set IS NULL) AND (policy_set IS NULL) = (outcomes IS NULL));
