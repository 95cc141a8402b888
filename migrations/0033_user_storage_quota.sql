-- backward-compatible: no
-- (Servers of the version before write items without counting their bytes: what they wrote after this migration would
-- be missing from datastores.stored_bytes for good, and their users could go past the quota. Stop them first.)
-- Per-user storage quotas (issue 35): one user with gigabytes of items could fill the database all tenants share.
-- tenants.max_user_bytes is the quota (0: none). datastores.stored_bytes holds the bytes (octet_length of content) of
-- the datastore's live items, kept by the statements that write items, in the transaction that takes the datastore's
-- modseq: the quota check of a write sums a user's few datastore rows instead of the items. Tombstones do not count:
-- a delete frees its bytes at once, so that a user at the quota can make room.
-- The tenants that exist get the default quota too (1 GiB, persistence/accounts/tenants.hpp): far above what a
-- person's contacts and calendars take; an operator who wants more or none sets it (`--max-user-bytes`).
-- One DO block, as 0028: on a distributed schema Citus refuses a string of several commands. The CHECK is added on
-- its own, with a name: Citus refuses a column added with a constraint in one command.
DO $$
BEGIN
    ALTER TABLE tenants ADD COLUMN max_user_bytes bigint NOT NULL DEFAULT 1073741824;
    ALTER TABLE tenants ADD CONSTRAINT tenants_max_user_bytes_check CHECK (max_user_bytes >= 0);
    ALTER TABLE datastores ADD COLUMN stored_bytes bigint NOT NULL DEFAULT 0;
    -- Joined on the whole key, user included: on Citus each shard sums its own items.
    UPDATE datastores d SET stored_bytes = live.bytes
    FROM (SELECT tenant_id, user_id, datastore_id, sum(octet_length(content)) AS bytes FROM items WHERE NOT deleted
          GROUP BY tenant_id, user_id, datastore_id) AS live
    WHERE d.tenant_id = live.tenant_id AND d.user_id = live.user_id AND d.datastore_id = live.datastore_id;
END
$$;
