-- The outbox of server-alerted sync (migration 0036): the trigger of every change to a datastore (its modseq moves:
-- an item added, replaced or deleted by SyncML, DAV or an import, in the transaction of the change) marks each of its
-- user's devices that opted in for the datastore's kind as pending. One row per device gathers all changes until a
-- notification goes (coalescing); the sender decides then whether the device has anything to fetch (not when every
-- change since its last sync came from itself), whether the tenant and user still want it, and when to send.
-- Only the user's co-located rows: on Citus the trigger runs on the shard (see 0036).
CREATE OR REPLACE FUNCTION syncml_push_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v_now timestamptz := now();
BEGIN
    INSERT INTO push_outbox AS o (tenant_id, user_id, device_id, pending_since, changes, last_change_at, due_at)
    SELECT p.tenant_id, p.user_id, p.device_id, v_now, NEW.modseq - OLD.modseq, v_now, v_now
    FROM push_devices p
    WHERE p.tenant_id = NEW.tenant_id AND p.user_id = NEW.user_id
      AND (cardinality(p.datastores) = 0 OR NEW.kind = ANY (p.datastores))
    ON CONFLICT (tenant_id, user_id, device_id) DO UPDATE SET
        changes = CASE WHEN o.pending_since IS NULL THEN EXCLUDED.changes ELSE o.changes + EXCLUDED.changes END,
        pending_since = coalesce(o.pending_since, EXCLUDED.pending_since),
        last_change_at = EXCLUDED.last_change_at,
        -- A row that was idle becomes due now, unless a retry or the re-notify interval set a later time.
        due_at = CASE WHEN o.pending_since IS NULL THEN GREATEST(o.due_at, EXCLUDED.due_at) ELSE o.due_at END;
    RETURN NULL;
END
$$;
