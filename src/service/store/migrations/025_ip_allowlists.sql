-- IP allow-lists (set_ip_allowlist / remove_ip_allowlist / get_ip_allowlist): one organization-level
-- list (public_key '') and any number of API-key-level lists per parent organization. `rules` is a
-- JSON array of {cidr, label?, createdAt}; `enabled` is null for API-key-level lists.
CREATE TABLE ip_allowlists (
  organization_id     text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  public_key          text NOT NULL DEFAULT '',
  enabled             boolean,
  on_evaluation_error text NOT NULL DEFAULT 'DENY' CHECK (on_evaluation_error IN ('ALLOW', 'DENY')),
  rules               jsonb NOT NULL DEFAULT '[]',
  created_at          bigint NOT NULL,
  updated_at          bigint NOT NULL,
  PRIMARY KEY (organization_id, public_key)
);
