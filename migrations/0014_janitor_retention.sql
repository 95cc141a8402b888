-- Retention (issue 17): the janitor deletes tombstones (deleted items) older than their tenant's retention. A
-- device store that had not seen a purged delete gets a slow sync instead of missing it.
ALTER TABLE tenants ADD COLUMN tombstone_retention_days integer NOT NULL DEFAULT 90
    CHECK (tombstone_retention_days > 0);

-- The tombstones of a tenant by age: the purge reads only old ones. Item updates already change an indexed column
-- (modseq), so this index costs them no heap-only update.
CREATE INDEX items_tombstones ON items (tenant_id, updated_at) WHERE deleted;

-- One janitor pass at a time over all instances. A row rather than an advisory lock: it works through poolers in
-- transaction mode, and a pass that died frees it when expires_at passes.
CREATE TABLE janitor_lease (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    holder text NOT NULL DEFAULT '',
    expires_at timestamptz NOT NULL DEFAULT '-infinity'
);
INSERT INTO janitor_lease DEFAULT VALUES;
