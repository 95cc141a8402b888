-- backward-compatible: yes
-- CardDAV and CalDAV (issue 19) on the same items as SyncML.
-- A tenant opts in to DAV (off for the tenants that exist, as for new ones unless `--dav on`).
ALTER TABLE tenants ADD COLUMN dav_enabled boolean NOT NULL DEFAULT false;
-- The highest modseq of a tombstone the janitor purged from the datastore: a DAV sync token at or below it no longer
-- lists every deletion since, so the client must start over.
ALTER TABLE datastores ADD COLUMN purged_modseq bigint NOT NULL DEFAULT 0;
-- The resource name a DAV client gave an item (PUT /dav/.../contacts/<name>). Items without a row are named after
-- their GUID. Kept with the tombstone, so that a sync-collection report names the deleted resource.
CREATE TABLE dav_names (
    tenant_id bigint NOT NULL,
    item_id bigint NOT NULL,
    datastore_id bigint NOT NULL,
    name text NOT NULL,
    PRIMARY KEY (tenant_id, item_id),
    UNIQUE (tenant_id, datastore_id, name),
    FOREIGN KEY (tenant_id, item_id) REFERENCES items ON DELETE CASCADE
);
