-- backward-compatible: yes
-- (Columns without defaults that servers of the version before neither read nor write, a new table and a new function:
-- they keep opening the lowest datastore of a kind, which is the default collection below, through their own
-- syncml_open_device_store, left as it was. A later migration drops that function.)
-- Many collections per user (issue 38). A collection is a datastore row: DAV clients create address books and
-- calendars (MKCOL, MKCALENDAR), name, describe, colour and order them (PROPPATCH) and delete them. Its items stay in
-- items with the datastore's modseq, so sync-collection and SyncML read one change log.
-- - The default collection of a kind is the user's lowest live datastore of that kind, as the opening of a device
--   store has always taken it: the four every user has (contacts, calendar, tasks, memos) are the defaults, with their
--   URLs. A new collection is only ever created after its kind's default exists, and a default cannot be deleted.
-- - Properties: display_name, description, color (Apple's calendar-color), sort_order (calendar-order), time_zone
--   (calendar-timezone, a VCALENDAR with one VTIMEZONE); NULL: none set. components lists the iCalendar components a
--   calendar takes (VEVENT, VTODO, VJOURNAL); NULL: its kind's one. A calendar taking several has the kind of the
--   first of VEVENT, VTODO, VJOURNAL it takes.
-- - deleted_at: a deleted collection. Its items are tombstones, its name is freed (renamed to "name/<datastore_id>",
--   which no collection name can be), and it stays until the janitor removes it after the tenant's tombstone retention,
--   so that a SyncML device that synced it gets the deletions first.
-- device_collections: the collection a device's datastore of a kind syncs instead of the default (admin device
-- collection); it goes with the device or the collection.
-- The function syncml_open_collection_store (migrations/functions/) opens a device store on the collection a device's
-- datastore syncs.
-- One DO block, as 0028: on a distributed schema Citus refuses a string of several commands.
DO $$
BEGIN
    ALTER TABLE datastores ADD COLUMN display_name text;
    ALTER TABLE datastores ADD COLUMN description text;
    ALTER TABLE datastores ADD COLUMN color text;
    ALTER TABLE datastores ADD COLUMN sort_order bigint;
    ALTER TABLE datastores ADD COLUMN time_zone text;
    ALTER TABLE datastores ADD COLUMN components text[];
    ALTER TABLE datastores ADD COLUMN deleted_at timestamptz;

    CREATE TABLE device_collections (
        tenant_id bigint NOT NULL,
        user_id bigint NOT NULL,
        device_id bigint NOT NULL,
        kind text NOT NULL CHECK (kind IN ('contacts', 'calendar', 'tasks', 'memos')),
        datastore_id bigint NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, user_id, device_id, kind),
        FOREIGN KEY (tenant_id, user_id, device_id) REFERENCES devices ON DELETE CASCADE,
        FOREIGN KEY (tenant_id, user_id, datastore_id) REFERENCES datastores ON DELETE CASCADE
    );
    CREATE INDEX device_collections_by_datastore ON device_collections (tenant_id, user_id, datastore_id);

END
$$;
