-- The opening of a device store on the collection the device's datastore syncs (sql::open_collection_store, issue 38):
-- the datastore, the device's view of it and, within a session, its resume pointer p_pointer_prefix ||
-- device_store_id, in one round trip, as syncml_open_device_store does for the default collection. Which collection:
-- 1. p_collection, the name the datastore URI gives (./calendar?collection=work; a kind's name is its default). A
--    deleted collection of that name is taken while the device's view of it has deletions to receive, so that the
--    device learns them; after that, or for a collection that does not exist or takes no items of p_kind, the one row
--    has r_device_store_id 0 and nothing is written (the Alert gets 404).
-- 2. else the device's choice for p_kind (device_collections, set by an operator); a deleted collection there is
--    forgotten once the device's view of it has seen everything, and the default is opened instead;
-- 3. else the default: the user's lowest live datastore of p_kind, created on first use (name = kind). No row when it
--    cannot be created (its name taken by a datastore of another kind): the caller then takes the long way.
-- r_other_kinds: the datastore takes other components than p_kind's too (a calendar of events and tasks): the engine
-- syncs only the items of p_kind with it.
-- A resume pointer lasts as long as any session may (session_max_age, at most 24 hours), as in
-- syncml_open_device_store. Keyed by p_owner it runs on the owner's node (persistence/pg/distributed_schema.cpp).
CREATE OR REPLACE FUNCTION syncml_open_collection_store(p_owner bigint, p_tenant bigint, p_device bigint, p_kind text,
                                                        p_collection text, p_remote_uri text, p_device_uri text,
                                                        p_pointer_prefix text, p_session_id text)
RETURNS TABLE (r_device_store_id bigint, r_datastore_id bigint, r_client_anchor text, r_server_anchor text,
               r_last_modseq_seen bigint, r_needs_slow_sync boolean, r_sync_filter text,
               r_previous_client_anchor text, r_previous_modseq_seen bigint, r_window_past_days integer,
               r_window_future_days integer, r_window_max_items integer, r_window_max_photo_bytes integer,
               r_other_kinds boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_datastore bigint;
    v_kind text;
    v_components text[];
    v_component text := CASE p_kind WHEN 'calendar' THEN 'VEVENT' WHEN 'tasks' THEN 'VTODO'
                                    WHEN 'memos' THEN 'VJOURNAL' END;
    v_deleted boolean;
    v_unseen boolean;
    ds device_stores%ROWTYPE;
    d devices%ROWTYPE;
    t tenants%ROWTYPE;
    v_expires timestamptz := now() + interval '24 hours 30 minutes';
BEGIN
    IF p_collection IN ('contacts', 'calendar', 'tasks', 'memos') AND p_collection <> p_kind THEN
        -- Another kind's default collection takes no items of p_kind.
        RETURN QUERY SELECT 0::bigint, 0::bigint, ''::text, ''::text, 0::bigint, true, ''::text, ''::text,
            0::bigint, 0, 0, 0, 0, false;
        RETURN;
    ELSIF coalesce(p_collection, '') NOT IN ('', p_kind) THEN
        SELECT datastore_id, kind, components INTO v_datastore, v_kind, v_components FROM datastores
        WHERE tenant_id = p_tenant AND user_id = p_owner AND name = p_collection AND deleted_at IS NULL;
        IF v_datastore IS NULL THEN
            SELECT x.datastore_id, x.kind, x.components INTO v_datastore, v_kind, v_components
            FROM device_stores s JOIN datastores x ON x.tenant_id = s.tenant_id AND x.user_id = s.user_id
                AND x.datastore_id = s.datastore_id
            WHERE s.tenant_id = p_tenant AND s.user_id = p_owner AND s.device_id = p_device
              AND s.remote_uri = p_remote_uri AND x.deleted_at IS NOT NULL
              AND split_part(x.name, '/', 1) = p_collection AND x.modseq > s.last_modseq_seen
            ORDER BY x.deleted_at DESC LIMIT 1;
        END IF;
        IF v_datastore IS NULL OR NOT (v_kind = p_kind OR coalesce(v_component = ANY (v_components), false)) THEN
            RETURN QUERY SELECT 0::bigint, 0::bigint, ''::text, ''::text, 0::bigint, true, ''::text, ''::text,
                0::bigint, 0, 0, 0, 0, false;
            RETURN;
        END IF;
    ELSIF coalesce(p_collection, '') = '' THEN
        SELECT x.datastore_id, x.components, x.deleted_at IS NOT NULL INTO v_datastore, v_components, v_deleted
        FROM device_collections c JOIN datastores x ON x.tenant_id = c.tenant_id AND x.user_id = c.user_id
            AND x.datastore_id = c.datastore_id
        WHERE c.tenant_id = p_tenant AND c.user_id = p_owner AND c.device_id = p_device AND c.kind = p_kind;
        IF v_deleted THEN
            SELECT EXISTS (SELECT 1 FROM device_stores s JOIN datastores x ON x.tenant_id = s.tenant_id
                           AND x.user_id = s.user_id AND x.datastore_id = s.datastore_id
                           WHERE s.tenant_id = p_tenant AND s.user_id = p_owner AND s.device_id = p_device
                           AND s.datastore_id = v_datastore AND s.remote_uri = p_remote_uri
                           AND s.last_modseq_seen < x.modseq)
            INTO v_unseen;
            IF NOT v_unseen THEN
                DELETE FROM device_collections WHERE tenant_id = p_tenant AND user_id = p_owner
                    AND device_id = p_device AND kind = p_kind;
                v_datastore := NULL;
            END IF;
        END IF;
    END IF;
    IF v_datastore IS NULL THEN
        v_components := NULL;
        SELECT datastore_id INTO v_datastore FROM datastores
        WHERE tenant_id = p_tenant AND user_id = p_owner AND kind = p_kind AND deleted_at IS NULL
        ORDER BY datastore_id LIMIT 1;
        IF v_datastore IS NULL THEN
            INSERT INTO datastores (tenant_id, user_id, name, kind) VALUES (p_tenant, p_owner, p_kind, p_kind)
            ON CONFLICT DO NOTHING RETURNING datastore_id INTO v_datastore;
            IF v_datastore IS NULL THEN
                -- Another transaction created it after the first look; this statement's snapshot has it.
                SELECT datastore_id INTO v_datastore FROM datastores
                WHERE tenant_id = p_tenant AND user_id = p_owner AND kind = p_kind AND deleted_at IS NULL
                ORDER BY datastore_id LIMIT 1;
                IF v_datastore IS NULL THEN
                    RETURN;
                END IF;
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
        coalesce(d.window_max_items, t.window_max_items), coalesce(d.window_max_photo_bytes, t.window_max_photo_bytes),
        coalesce(cardinality(v_components), 0) > 1;
END
$$;
