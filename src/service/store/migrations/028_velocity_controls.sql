-- Velocity controls (create/delete_velocity_control, get_velocity_control, list_velocity_controls):
-- spend limits per asset (or activity counts) per rolling window, per organization, user or wallet.
-- velocity_spends holds what each committed signature or send counted, written in that activity's
-- transaction while the control's row is locked (FOR UPDATE), so two instances on one database
-- cannot both fit under a limit. Amounts are in units of 10^-18 of the asset (counts: 10^18 each).
CREATE TABLE velocity_controls (
  id              text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  identifier      text NOT NULL,
  name            text NOT NULL,
  data_source     jsonb NOT NULL,
  aggregation     jsonb NOT NULL,
  created_at      bigint NOT NULL,
  updated_at      bigint NOT NULL,
  UNIQUE (organization_id, identifier)
);
CREATE INDEX velocity_controls_organization ON velocity_controls (organization_id, created_at, id);

CREATE TABLE velocity_spends (
  control_id      text NOT NULL REFERENCES velocity_controls(id) ON DELETE CASCADE,
  organization_id text NOT NULL,
  bucket          text NOT NULL,
  activity_id     text NOT NULL,
  amount          numeric NOT NULL,
  created_at      bigint NOT NULL,
  PRIMARY KEY (control_id, activity_id)
);
CREATE INDEX velocity_spends_window ON velocity_spends (control_id, bucket, created_at);
