-- The opening of a device store (sql::open_device_store): the user's datastore of a kind (created on first use,
-- name = kind), the device's view of it and, within a session, its resume pointer p_pointer_prefix ||
-- device_store_id, in one round trip. A function because a distributed database cannot send one statement with
-- modifying CTEs to a shard whole; keyed by p_owner it runs on the owner's node like syncml_open_session
-- (persistence/pg/distributed_schema.cpp). No row when the datastore cannot be found or created (its name taken by a
-- datastore of another kind): the caller then takes the long way.
-- A resume pointer lasts as long as any session may (session_max_age, at most 24 hours): whether the session can
-- still be continued is its row's to say (sql::lock_pointed_session reads both). One pointer per device store.
CREATE OR REPLACE FUNCTION syncml_open_device_store(p_owner bigint, p_tenant bigint, p_device bigint, p_kind text,
                                         p_remote_uri text, p_device_uri text, p_pointer_prefix text,
                                         p_session_id text)
RETURNS TABLE (r_device_store_id bigint, r_datastore_id bigint, r_client_anchor text, r_server_anchor text,
               r_last_modseq_seen bigint, r_needs_slow_sync boolean, r_sync_filter text,
               r_previous_client_anchor text, r_previous_modseq_seen bigint, r_window_past_days integer,
               r_window_future_days integer, r_window_max_items integer, r_window_max_photo_bytes integer)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_datastore bigint;
    ds device_stores%ROWTYPE;
    d devices%ROWTYPE;
    t tenants%ROWTYPE;
    v_expires timestamptz := now() + interval '24 hours 30 minutes';
BEGIN
    SELECT datastore_id INTO v_datastore FROM datastores
    WHERE tenant_id = p_tenant AND user_id = p_owner AND kind = p_kind ORDER BY datastore_id LIMIT 1;
    IF v_datastore IS NULL THEN
        INSERT INTO datastores (tenant_id, user_id, name, kind) VALUES (p_tenant, p_owner, p_kind, p_kind)
        ON CONFLICT DO NOTHING RETURNING datastore_id INTO v_datastore;
        IF v_datastore IS NULL THEN
            -- Another transaction created it after the first look; this statement's snapshot has it.
            SELECT datastore_id INTO v_datastore FROM datastores
            WHERE tenant_id = p_tenant AND user_id = p_owner AND kind = p_kind ORDER BY datastore_id LIMIT 1;
            IF v_datastore IS NULL THEN
                RETURN;
            END IF;
        END IF;
    END IF;
    INSERT INTO device_stores (tenant_id, user_id, device_id, datastore_id, remote_uri)
    VALUES (p_tenant, p_owner, p_device, v_datastore, p_remote_uri)
    ON CONFLICT (tenant_id, user_id, device_id, datastore_id, remote_uri) DO UPDATE SET remote_uri = EXCLUDED.remote_uri
    RETURNING * INTO ds;
    IF coalesce(p_session_id, '') <> '' THEN
        INSERT INTO resume_pointers (tenant_id, user_id, device_uri, pointer, syncml_session_id, expires_at)
        VALUES (p_tenant, p_owner, p_device_uri, p_pointer_prefix || ds.device_store_id, p_session_id, v_expires)
        ON CONFLICT (tenant_id, user_id, device_uri, pointer) DO UPDATE SET
            syncml_session_id = EXCLUDED.syncml_session_id, expires_at = EXCLUDED.expires_at;
    END IF;
    -- The sync window in effect for the device (sql::window_of_device): its own, else its tenant's. Two statements:
    -- in a delegated function Citus accepts a distributed table only alone, filtered by the owner.
    SELECT * INTO t FROM tenants WHERE tenant_id = p_tenant;
    SELECT * INTO d FROM devices WHERE tenant_id = p_tenant AND user_id = p_owner AND device_id = p_device;
    RETURN QUERY SELECT ds.device_store_id, ds.datastore_id, coalesce(ds.client_last_anchor, ''),
        coalesce(ds.server_last_anchor, ''), ds.last_modseq_seen, ds.needs_slow_sync, ds.sync_filter,
        coalesce(ds.previous_client_anchor, ''), ds.previous_modseq_seen,
        coalesce(d.window_past_days, t.window_past_days), coalesce(d.window_future_days, t.window_future_days),
        coalesce(d.window_max_items, t.window_max_items), coalesce(d.window_max_photo_bytes, t.window_max_photo_bytes);
END
$$;
