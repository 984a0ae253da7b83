-- delete_sub_organization: a deleted sub-organization stays as a tombstone row so
-- its activity history (activities.organization_id references it) survives; its users, credentials,
-- wallets, keys and other state are purged by the deleting activity (store/organizations.ts
-- purgeOrganization). Every lookup of an organization treats a row with deleted_at as not found.
ALTER TABLE organizations ADD COLUMN deleted_at bigint;
