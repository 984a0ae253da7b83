-- The version of an organization's policies: a fresh random value each time a row of
-- `policies` of the organization is inserted, updated or deleted, set by a trigger in the writing
-- transaction. A service instance caches the parsed policies under the version it read with them;
-- another instance's write changes the version, so no instance evaluates a stale set. Random, not a
-- counter: a version names exactly one content of the table, even across a restore from a backup.
ALTER TABLE organizations ADD COLUMN policies_version text NOT NULL DEFAULT gen_random_uuid()::text;

-- One line per body statement: the migration runner splits on `;` at line ends.
CREATE FUNCTION policies_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE organizations SET policies_version = gen_random_uuid()::text WHERE id = COALESCE(NEW.organization_id, OLD.organization_id); RETURN NULL; END $$;

CREATE TRIGGER policies_version_bump AFTER INSERT OR UPDATE OR DELETE ON policies FOR EACH ROW EXECUTE FUNCTION policies_version_bump();
