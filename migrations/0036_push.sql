-- backward-compatible: yes
-- (New tables, tenant columns with defaults and a trigger on datastores: servers of the version before neither read
-- nor write the push tables, and their item writes fill the outbox through the trigger like ours.)
-- Server-alerted sync (issue 37). A device that opted in (push_devices: its phone number, the server password its
-- notifications are signed with, which datastores, quiet hours) gets a notification when its user's data changes.
-- push_outbox holds one row per device: a change marks it pending in the transaction of the change (the trigger
-- below, so that every writer, SyncML, DAV and imports, fills it), the sender of any instance claims due rows, sends
-- one notification for all the changes since (coalescing) and keeps the row for the re-notify interval and the
-- retries. push_budget counts the notifications of a tenant per day against tenants.push_daily_budget.
-- On Citus push_devices and push_outbox are distributed by user with the user's other rows, push_budget is a
-- reference table (persistence/pg/distributed_schema.cpp), and the trigger runs on the shards: Citus creates it only
-- with citus.enable_unsafe_triggers, and it touches nothing but the user's co-located rows (a reference table or
-- another shard in a trigger fails: "cannot execute a distributed query from a query on a shard").
-- One DO block, as 0028: on a distributed schema Citus refuses a string of several commands.
DO $$
BEGIN
    SET LOCAL citus.enable_unsafe_triggers = on;
    ALTER TABLE tenants ADD COLUMN push_enabled boolean NOT NULL DEFAULT false;
    ALTER TABLE tenants ADD COLUMN push_daily_budget integer NOT NULL DEFAULT 1000;
    ALTER TABLE tenants ADD CONSTRAINT tenants_push_daily_budget_check CHECK (push_daily_budget >= 0);

    CREATE TABLE push_devices (
        tenant_id bigint NOT NULL,
        user_id bigint NOT NULL,
        device_id bigint NOT NULL,
        phone_number text CHECK (phone_number ~ '^\+[1-9][0-9]{6,14}$'),  -- E.164; NULL: the webhook only
        -- The server password and nonce the phone checks a notification's digest with (empty: a phone configured
        -- without them). A shared secret of the phone and the server that opens nothing here: it only proves to the
        -- phone that a notification is ours.
        server_password text NOT NULL DEFAULT '',
        server_nonce text NOT NULL DEFAULT '',
        datastores text[] NOT NULL DEFAULT '{}',  -- datastore kinds; empty: every datastore the device syncs
        -- No notification from quiet_start until quiet_end (local time of time_zone; may span midnight).
        quiet_start time,
        quiet_end time,
        time_zone text NOT NULL DEFAULT 'UTC',
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, user_id, device_id),
        FOREIGN KEY (tenant_id, user_id, device_id) REFERENCES devices ON DELETE CASCADE
    );

    CREATE TABLE push_outbox (
        tenant_id bigint NOT NULL,
        user_id bigint NOT NULL,
        device_id bigint NOT NULL,
        pending_since timestamptz,             -- the first change no notification announced yet; NULL: none waits
        changes bigint NOT NULL DEFAULT 0,     -- changes since then (one notification announces them all)
        last_change_at timestamptz,
        due_at timestamptz NOT NULL DEFAULT now(),  -- not sent before (retries, quiet hours, re-notify interval)
        attempts integer NOT NULL DEFAULT 0,   -- failed sends of the pending notification
        lease_until timestamptz,               -- a sender has it until then; after, another may take it
        notified_at timestamptz,               -- the last notification sent
        last_result text,                      -- what happened to the last one: sent, or why not
        PRIMARY KEY (tenant_id, user_id, device_id),
        FOREIGN KEY (tenant_id, user_id, device_id) REFERENCES push_devices ON DELETE CASCADE
    );
    -- The senders' scan across tenants (as the janitor's): only the pending rows, few at any time, so that sorting
    -- them by due_at costs little; tenant_id first as in every index (DESIGN.md, section 3).
    CREATE INDEX push_outbox_due ON push_outbox (tenant_id, due_at) WHERE pending_since IS NOT NULL;

    CREATE TABLE push_budget (
        tenant_id bigint NOT NULL REFERENCES tenants ON DELETE CASCADE,
        day date NOT NULL,  -- UTC
        sent integer NOT NULL DEFAULT 0,
        PRIMARY KEY (tenant_id, day)
    );

    -- Replaced by migrations/functions/syncml_push_enqueue.sql right after the migrations.
    CREATE FUNCTION syncml_push_enqueue() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NULL; END';
    CREATE TRIGGER datastores_push AFTER UPDATE OF modseq ON datastores
        FOR EACH ROW WHEN (NEW.modseq > OLD.modseq) EXECUTE FUNCTION syncml_push_enqueue();
END
$$;
