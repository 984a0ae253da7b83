-- get_api_keys of a whole organization (no userId) read every API key of the service: on a database
-- with 100,000 sub-organizations, 15.7 ms against 1.3 ms empty on PostgreSQL (11.8×), 2.4× on PGlite
-- at a tenth (bench/scale.ts, scale with data). Every other read of api_keys goes by id, user or
-- public key, which have their indexes.
CREATE INDEX api_keys_org ON api_keys (organization_id);
