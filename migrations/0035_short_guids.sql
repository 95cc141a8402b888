-- backward-compatible: yes
-- (A new table: servers of the version before neither read nor write it, and send full GUIDs as they always did.)
-- Short ids for devices that keep shorter GUIDs than ours (issue 36): a phone's DevInf declares a MaxGUIDSize per
-- datastore (a Nokia E51: 8 bytes) and our GUIDs are 36-byte UUIDs, which such a phone truncates or refuses. OMA DS has
-- the server send it a temporary id that fits, and map the phone's Map of that id back to the item
-- (mapping_rows::short_guids_for). One row per item and device store, numbered per device store and kept for good:
-- every Add, Replace, resend and resume carries the same id, and a Map that comes late still finds the item. No key to
-- items: the row of a purged tombstone stays, so that its number is never given to another item (a Map naming it gets
-- 404); rows go with their device store.
-- One DO block (see 0028). On a distributed schema the table is distributed here, in the users' colocation group,
-- before its key to device_stores is added: Citus refuses a key from a local table to a distributed one. On one
-- PostgreSQL the distribute step (persistence/pg/distributed_schema.cpp) distributes it with the others when Citus
-- comes.
DO $$
BEGIN
    CREATE TABLE short_guids (
        tenant_id bigint NOT NULL,
        user_id bigint NOT NULL,
        device_store_id bigint NOT NULL,
        number bigint NOT NULL,
        guid text NOT NULL,
        CONSTRAINT short_guids_pkey PRIMARY KEY (tenant_id, user_id, device_store_id, number),
        CONSTRAINT short_guids_by_guid UNIQUE (tenant_id, user_id, device_store_id, guid)
    );
    IF to_regclass('pg_dist_partition') IS NOT NULL THEN
        IF EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = to_regclass('device_stores')) THEN
            PERFORM create_distributed_table('short_guids', 'user_id', colocate_with => 'users');
        END IF;
    END IF;
    ALTER TABLE short_guids ADD CONSTRAINT short_guids_device_store_fkey
        FOREIGN KEY (tenant_id, user_id, device_store_id) REFERENCES device_stores ON DELETE CASCADE;
END
$$;
