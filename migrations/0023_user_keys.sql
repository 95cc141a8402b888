-- backward-compatible: no
-- Every row of a user names the user, and a user's id is derived from what a login knows, the tenant and the user
-- name (persistence/DISTRIBUTED.md): on a distributed database all of a user's rows live on the shard of the user's
-- id, every statement of a message names it, and a login finds it without a lookup. The ids of existing users change:
-- sessions (their engine state holds the old id) and resume pointers go, so phones in the middle of a sync start
-- their next one afresh (a suspended sync is not resumed).
CREATE FUNCTION syncml_user_key(p_tenant bigint, p_name text) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT greatest(hashtextextended(p_tenant::text || '/' || p_name, 0) & 9223372036854775807, 1) $$;
-- UTF-8 bytes as text. convert_from is STABLE, and a distributed database refuses STABLE functions over columns in an
-- UPDATE (item_batch_sql.hpp packs a batch's contents into one bytea); the database's encoding never changes, so the
-- result depends on the argument alone.
CREATE FUNCTION syncml_utf8(p_bytes bytea) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT convert_from(p_bytes, 'UTF8') $$;
-- The shard of a device id's own failure counter (auth_failures scope 'device'), which no user owns.
CREATE FUNCTION syncml_device_key(p_tenant bigint, p_device_uri text) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT
PARALLEL SAFE AS $$ SELECT greatest(hashtextextended('device/' || p_tenant::text || '/' || p_device_uri, 0)
                                    & 9223372036854775807, 1) $$;

DELETE FROM sessions;

-- Keys between a user's tables are rebuilt below with the user in them.
ALTER TABLE devices DROP CONSTRAINT devices_tenant_id_user_id_fkey;
ALTER TABLE datastores DROP CONSTRAINT datastores_tenant_id_user_id_fkey;
ALTER TABLE sessions DROP CONSTRAINT sessions_tenant_id_user_id_fkey;
ALTER TABLE sessions DROP CONSTRAINT sessions_tenant_id_device_id_fkey;
ALTER TABLE known_clients DROP CONSTRAINT known_clients_tenant_id_user_id_fkey;
ALTER TABLE items DROP CONSTRAINT items_tenant_id_datastore_id_fkey;
ALTER TABLE device_stores DROP CONSTRAINT device_stores_tenant_id_device_id_fkey;
ALTER TABLE device_stores DROP CONSTRAINT device_stores_tenant_id_datastore_id_fkey;
ALTER TABLE mappings DROP CONSTRAINT mappings_tenant_id_device_store_id_fkey;
ALTER TABLE mappings DROP CONSTRAINT mappings_tenant_id_item_id_fkey;
ALTER TABLE incoming_chunks DROP CONSTRAINT incoming_chunks_tenant_id_device_store_id_fkey;
ALTER TABLE dav_names DROP CONSTRAINT dav_names_tenant_id_item_id_fkey;

CREATE TEMP TABLE user_renumbering ON COMMIT DROP AS
    SELECT tenant_id, user_id AS old_id, syncml_user_key(tenant_id, name) AS new_id FROM users;
ALTER TABLE users ALTER COLUMN user_id DROP IDENTITY;
UPDATE users u SET user_id = r.new_id FROM user_renumbering r WHERE u.tenant_id = r.tenant_id AND u.user_id = r.old_id;
UPDATE devices t SET user_id = r.new_id FROM user_renumbering r WHERE t.tenant_id = r.tenant_id AND t.user_id = r.old_id;
UPDATE datastores t SET user_id = r.new_id FROM user_renumbering r
    WHERE t.tenant_id = r.tenant_id AND t.user_id = r.old_id;
UPDATE known_clients t SET user_id = r.new_id FROM user_renumbering r
    WHERE t.tenant_id = r.tenant_id AND t.user_id = r.old_id;
ALTER TABLE users ADD CONSTRAINT users_key CHECK (user_id = syncml_user_key(tenant_id, name));

-- The user of every row, from its parent.
ALTER TABLE items ADD COLUMN user_id bigint;
UPDATE items i SET user_id = d.user_id FROM datastores d
    WHERE d.tenant_id = i.tenant_id AND d.datastore_id = i.datastore_id;
ALTER TABLE item_match_keys ADD COLUMN user_id bigint;
UPDATE item_match_keys k SET user_id = d.user_id FROM datastores d
    WHERE d.tenant_id = k.tenant_id AND d.datastore_id = k.datastore_id;
DELETE FROM item_match_keys WHERE user_id IS NULL;
ALTER TABLE device_stores ADD COLUMN user_id bigint;
UPDATE device_stores s SET user_id = d.user_id FROM datastores d
    WHERE d.tenant_id = s.tenant_id AND d.datastore_id = s.datastore_id;
ALTER TABLE mappings ADD COLUMN user_id bigint;
UPDATE mappings m SET user_id = s.user_id FROM device_stores s
    WHERE s.tenant_id = m.tenant_id AND s.device_store_id = m.device_store_id;
ALTER TABLE incoming_chunks ADD COLUMN user_id bigint;
UPDATE incoming_chunks c SET user_id = s.user_id FROM device_stores s
    WHERE s.tenant_id = c.tenant_id AND s.device_store_id = c.device_store_id;
ALTER TABLE dav_names ADD COLUMN user_id bigint;
UPDATE dav_names n SET user_id = i.user_id FROM items i WHERE i.tenant_id = n.tenant_id AND i.item_id = n.item_id;
ALTER TABLE items ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE item_match_keys ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE device_stores ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE mappings ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE incoming_chunks ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE dav_names ALTER COLUMN user_id SET NOT NULL;

-- A session belongs to the user who authenticated it; resume pointers (rows without a user until now) have a table
-- of their own, keyed by the user as well.
ALTER TABLE sessions ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE sessions DROP CONSTRAINT sessions_by_device_session_user;
ALTER TABLE sessions ADD CONSTRAINT sessions_by_user_device_session
    UNIQUE (tenant_id, user_id, device_uri, syncml_session_id);
CREATE TABLE resume_pointers (
    tenant_id bigint NOT NULL,
    user_id bigint NOT NULL,
    device_uri text NOT NULL,
    pointer text NOT NULL,
    syncml_session_id text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, user_id, device_uri, pointer),
    FOREIGN KEY (tenant_id, user_id) REFERENCES users ON DELETE CASCADE
);
CREATE INDEX resume_pointers_by_expiry ON resume_pointers (tenant_id, expires_at);

-- Failure counters live on the shard of the user name they count (scopes user and user_address) or of the device id
-- (scope device).
ALTER TABLE auth_failures ADD COLUMN shard_key bigint;
UPDATE auth_failures SET shard_key = CASE scope WHEN 'device' THEN syncml_device_key(tenant_id, subject)
    WHEN 'user' THEN syncml_user_key(tenant_id, subject)
    ELSE syncml_user_key(tenant_id, left(subject, length(subject) - strpos(reverse(subject), ' '))) END;
ALTER TABLE auth_failures ALTER COLUMN shard_key SET NOT NULL;
ALTER TABLE auth_failures DROP CONSTRAINT auth_failures_pkey, ADD PRIMARY KEY (tenant_id, shard_key, scope, subject);

-- Primary and unique keys with the user in them.
ALTER TABLE users DROP CONSTRAINT users_tenant_id_name_key;  -- users_key and the primary key imply it
CREATE INDEX users_by_name ON users (tenant_id, name);
ALTER TABLE devices DROP CONSTRAINT devices_pkey, ADD PRIMARY KEY (tenant_id, user_id, device_id);
ALTER TABLE datastores DROP CONSTRAINT datastores_pkey, ADD PRIMARY KEY (tenant_id, user_id, datastore_id);
ALTER TABLE items DROP CONSTRAINT items_pkey, ADD PRIMARY KEY (tenant_id, user_id, item_id);
ALTER TABLE items DROP CONSTRAINT items_tenant_id_datastore_id_guid_key,
    ADD CONSTRAINT items_by_guid UNIQUE (tenant_id, user_id, datastore_id, guid);
ALTER TABLE item_match_keys DROP CONSTRAINT item_match_keys_pkey,
    ADD PRIMARY KEY (tenant_id, user_id, datastore_id, match_key, item_id);
DROP INDEX item_match_keys_by_item;
CREATE INDEX item_match_keys_by_item ON item_match_keys (tenant_id, user_id, item_id);
ALTER TABLE device_stores DROP CONSTRAINT device_stores_pkey, ADD PRIMARY KEY (tenant_id, user_id, device_store_id);
ALTER TABLE device_stores DROP CONSTRAINT device_stores_tenant_id_device_id_datastore_id_remote_uri_key,
    ADD CONSTRAINT device_stores_by_remote_uri UNIQUE (tenant_id, user_id, device_id, datastore_id, remote_uri);
ALTER TABLE mappings DROP CONSTRAINT mappings_pkey, ADD PRIMARY KEY (tenant_id, user_id, device_store_id, luid);
ALTER TABLE mappings DROP CONSTRAINT mappings_tenant_id_device_store_id_item_id_key,
    ADD CONSTRAINT mappings_by_store_item UNIQUE (tenant_id, user_id, device_store_id, item_id);
ALTER TABLE sessions DROP CONSTRAINT sessions_pkey, ADD PRIMARY KEY (tenant_id, user_id, session_id);
ALTER TABLE incoming_chunks DROP CONSTRAINT incoming_chunks_pkey,
    ADD PRIMARY KEY (tenant_id, user_id, device_store_id, byte_offset);
ALTER TABLE dav_names DROP CONSTRAINT dav_names_pkey, ADD PRIMARY KEY (tenant_id, user_id, item_id);
ALTER TABLE dav_names DROP CONSTRAINT dav_names_tenant_id_datastore_id_name_key,
    ADD CONSTRAINT dav_names_by_name UNIQUE (tenant_id, user_id, datastore_id, name);

ALTER TABLE devices ADD FOREIGN KEY (tenant_id, user_id) REFERENCES users ON DELETE CASCADE;
ALTER TABLE datastores ADD FOREIGN KEY (tenant_id, user_id) REFERENCES users ON DELETE CASCADE;
ALTER TABLE known_clients ADD FOREIGN KEY (tenant_id, user_id) REFERENCES users ON DELETE CASCADE;
ALTER TABLE items ADD FOREIGN KEY (tenant_id, user_id, datastore_id) REFERENCES datastores ON DELETE CASCADE;
ALTER TABLE device_stores ADD FOREIGN KEY (tenant_id, user_id, device_id) REFERENCES devices ON DELETE CASCADE;
ALTER TABLE device_stores ADD FOREIGN KEY (tenant_id, user_id, datastore_id) REFERENCES datastores ON DELETE CASCADE;
ALTER TABLE mappings ADD FOREIGN KEY (tenant_id, user_id, device_store_id) REFERENCES device_stores ON DELETE CASCADE;
ALTER TABLE mappings ADD FOREIGN KEY (tenant_id, user_id, item_id) REFERENCES items ON DELETE CASCADE;
ALTER TABLE sessions ADD FOREIGN KEY (tenant_id, user_id) REFERENCES users ON DELETE CASCADE;
ALTER TABLE sessions ADD FOREIGN KEY (tenant_id, user_id, device_id) REFERENCES devices ON DELETE CASCADE;
ALTER TABLE incoming_chunks ADD FOREIGN KEY (tenant_id, user_id, device_store_id)
    REFERENCES device_stores ON DELETE CASCADE;
ALTER TABLE dav_names ADD FOREIGN KEY (tenant_id, user_id, item_id) REFERENCES items ON DELETE CASCADE;

-- Match keys keep no foreign key (0005, 0007: a check per key row); the trigger that deleted them with their
-- datastore would run inside a shard, so deleting a user or a tenant deletes them itself (persistence/accounts.cpp).
DROP TRIGGER datastores_drop_match_keys ON datastores;
DROP FUNCTION drop_match_keys_of_datastore();

DROP FUNCTION syncml_open_session(bigint, text, text, bigint, text, bigint, text, double precision, double precision,
                                  integer, integer);

-- As in 0016_resend_digest.sql, every statement bound to the message's owner p_owner: the user of its valid
-- credentials or of its RespURI token (0: neither; then only the address binding may find a session, across the
-- device's users). Times are taken once into variables: a distributed database routes a statement before it runs,
-- so values, not functions, go into upserts.
CREATE FUNCTION syncml_open_session(p_owner bigint, p_tenant bigint, p_device_uri text, p_session_id text,
                                    p_key bigint, p_msg_id text, p_user bigint, p_address text,
                                    p_address_idle_secs double precision, p_max_age_secs double precision,
                                    p_max_devices integer, p_max_sessions integer)
RETURNS TABLE (r_session_id bigint, r_syncml_session_id text, r_device_uri text, r_user_id bigint, r_state bytea,
               r_last_msg_id text, r_last_response bytea, r_last_response_type text, r_device_id bigint,
               r_device_user_id bigint, r_nonce bytea, r_devinf bytea, r_superseded boolean, r_device_touched boolean,
               r_device_refused boolean, r_sessions_refused boolean, r_last_request_digest bytea)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    s sessions%ROWTYPE;
    d devices%ROWTYPE;
    touched boolean := false;
    refused boolean := false;
    v_now timestamptz := now();
    v_oldest timestamptz := now() - make_interval(secs => p_max_age_secs);
    v_expires timestamptz := now() + interval '30 minutes';
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_tenant::text || '/' || p_device_uri, 0));
    IF p_key IS NOT NULL AND p_owner <> 0 AND (p_user <> 0 OR p_msg_id <> '1') THEN
        SELECT * INTO s FROM sessions
        WHERE tenant_id = p_tenant AND user_id = p_owner AND session_id = p_key
          AND device_uri IS NOT DISTINCT FROM p_device_uri
          AND syncml_session_id IS NOT DISTINCT FROM p_session_id AND expires_at > v_now
          AND created_at > v_oldest AND (p_user = 0 OR user_id = p_user)
        FOR UPDATE;
        IF s.session_id IS NOT NULL AND p_user = 0
           AND NOT syncml_session_credentials_current(p_tenant, s.user_id, s.authenticated_at) THEN
            s := NULL;
        END IF;
    END IF;
    IF s.session_id IS NULL AND p_user <> 0 THEN
        -- A session that starts (no live row of this user, device and SessionID) needs a free place among the
        -- tenant's p_max_sessions. Counted without a lock on the tenant: concurrent starts on different devices
        -- may overshoot by the number of workers, which is fine for a bound on load.
        -- The count spans the tenant's users, so a distributed database (where it would span shards) passes 0
        -- and bounds the tenant's sessions from a count it refreshes in the background. Nested IFs: the count runs
        -- only when needed, never planned for nothing.
        IF p_max_sessions > 0 THEN
            IF NOT EXISTS (SELECT 1 FROM sessions WHERE tenant_id = p_tenant AND user_id = p_user
                           AND device_uri = p_device_uri AND syncml_session_id = p_session_id
                           AND expires_at > v_now AND created_at > v_oldest)
               AND (SELECT count(*) FROM (SELECT 1 FROM sessions
                                          WHERE tenant_id = p_tenant AND finished_at IS NULL
                                            AND user_id IS NOT NULL  -- the predicate of sessions_unfinished
                                            AND created_at > v_oldest
                                            AND updated_at > v_now - interval '10 minutes' AND expires_at > v_now
                                          LIMIT p_max_sessions) live) >= p_max_sessions THEN
                RETURN QUERY SELECT NULL::bigint, NULL::text, NULL::text, NULL::bigint, NULL::bytea, NULL::text,
                    NULL::bytea, NULL::text, NULL::bigint, NULL::bigint, NULL::bytea, NULL::bytea, false, false,
                    false, true, NULL::bytea;
                RETURN;
            END IF;
        END IF;
        -- A live row is kept as it is (and locked by the update), an expired one starts afresh.
        INSERT INTO sessions AS o (tenant_id, user_id, device_uri, syncml_session_id, client_address,
                                   authenticated_at, created_at, updated_at, expires_at)
        VALUES (p_tenant, p_user, p_device_uri, p_session_id, p_address, v_now, v_now, v_now, v_expires)
        ON CONFLICT (tenant_id, user_id, device_uri, syncml_session_id) DO UPDATE SET
            state = CASE WHEN o.expires_at > EXCLUDED.created_at AND o.created_at > v_oldest
                         THEN o.state ELSE '\x' END,
            device_id = CASE WHEN o.expires_at > EXCLUDED.created_at AND o.created_at > v_oldest
                             THEN o.device_id END,
            last_msg_id = CASE WHEN o.expires_at > EXCLUDED.created_at AND o.created_at > v_oldest
                               THEN o.last_msg_id END,
            last_response = CASE WHEN o.expires_at > EXCLUDED.created_at AND o.created_at > v_oldest
                                 THEN o.last_response END,
            last_response_content_type = CASE WHEN o.expires_at > EXCLUDED.created_at AND o.created_at > v_oldest
                                              THEN o.last_response_content_type END,
            last_request_digest = CASE WHEN o.expires_at > EXCLUDED.created_at AND o.created_at > v_oldest
                                       THEN o.last_request_digest END,
            finished_at = CASE WHEN o.expires_at > EXCLUDED.created_at AND o.created_at > v_oldest
                               THEN o.finished_at END,
            created_at = CASE WHEN o.expires_at > EXCLUDED.created_at AND o.created_at > v_oldest
                              THEN o.created_at ELSE EXCLUDED.created_at END,
            updated_at = EXCLUDED.updated_at,
            expires_at = CASE WHEN o.expires_at > EXCLUDED.created_at AND o.created_at > v_oldest
                              THEN o.expires_at ELSE EXCLUDED.expires_at END,
            client_address = EXCLUDED.client_address,
            authenticated_at = EXCLUDED.authenticated_at
        RETURNING * INTO s;
    END IF;
    IF s.session_id IS NULL AND p_user = 0 AND p_msg_id <> '1' AND p_address_idle_secs > 0
       AND coalesce(p_address, '') <> '' THEN
        -- Without an owner (one database only: the distributed store never calls without one) across the device's
        -- users; with one, on the owner's shard.
        IF p_owner = 0 THEN
            SELECT * INTO s FROM sessions
            WHERE tenant_id = p_tenant AND device_uri = p_device_uri
              AND syncml_session_id = p_session_id AND client_address = p_address
              AND updated_at > v_now - make_interval(secs => p_address_idle_secs)
              AND expires_at > v_now AND created_at > v_oldest
              AND syncml_session_credentials_current(p_tenant, user_id, authenticated_at)
            ORDER BY updated_at DESC LIMIT 1
            FOR UPDATE;
        ELSE
            SELECT * INTO s FROM sessions
            WHERE tenant_id = p_tenant AND user_id = p_owner AND device_uri = p_device_uri
              AND syncml_session_id = p_session_id AND client_address = p_address
              AND updated_at > v_now - make_interval(secs => p_address_idle_secs)
              AND expires_at > v_now AND created_at > v_oldest
              AND syncml_session_credentials_current(p_tenant, user_id, authenticated_at)
            ORDER BY updated_at DESC LIMIT 1
            FOR UPDATE;
        END IF;
    END IF;
    IF s.session_id IS NULL THEN
        RETURN;
    END IF;
    IF s.device_id IS NOT NULL THEN
        SELECT * INTO d FROM devices WHERE tenant_id = p_tenant AND user_id = s.user_id AND device_id = s.device_id;
    END IF;
    IF p_user <> 0 AND s.last_msg_id IS DISTINCT FROM p_msg_id
       AND (p_msg_id = '1' OR d.device_id IS NULL OR d.user_id <> p_user) THEN
        IF NOT EXISTS (SELECT 1 FROM devices WHERE tenant_id = p_tenant AND user_id = p_user
                       AND device_uri = p_device_uri)
           AND (SELECT count(*) FROM devices WHERE tenant_id = p_tenant AND user_id = p_user) >= p_max_devices THEN
            refused := true;
        ELSE
            INSERT INTO devices AS o (tenant_id, user_id, device_uri, last_seen)
            VALUES (p_tenant, p_user, p_device_uri, v_now)
            ON CONFLICT (tenant_id, user_id, device_uri) DO UPDATE SET last_seen = EXCLUDED.last_seen
            RETURNING * INTO d;
            touched := true;
        END IF;
    END IF;
    RETURN QUERY SELECT s.session_id, s.syncml_session_id, s.device_uri, s.user_id, s.state,
        coalesce(s.last_msg_id, ''), coalesce(s.last_response, '\x'::bytea),
        coalesce(s.last_response_content_type, ''), coalesce(d.device_id, 0), coalesce(d.user_id, 0), d.nonce,
        d.devinf,
        EXISTS (SELECT 1 FROM sessions n WHERE n.tenant_id = s.tenant_id AND n.user_id = s.user_id
                AND n.device_uri = s.device_uri AND n.syncml_session_id <> s.syncml_session_id
                AND n.expires_at > v_now AND coalesce(n.last_msg_id, '') <> '' AND n.created_at > s.created_at),
        touched, refused, false, coalesce(s.last_request_digest, '\x'::bytea);
END
$$;

-- The end of every message: the session row as the engine leaves it (sql::save_session), bound to its owner. A
-- function, so that its times are values: a distributed database plans an UPDATE before it runs and refuses clock
-- functions inside CASE there. The expiry (an indexed column) moves only when it is 5 minutes old, so the other
-- messages of a session update its row in place (HOT: no new index entries).
CREATE FUNCTION syncml_save_session(p_owner bigint, p_tenant bigint, p_session bigint, p_state bytea,
                                    p_last_msg_id text, p_last_response bytea, p_last_response_type text,
                                    p_device bigint, p_finished boolean, p_verified boolean, p_address text,
                                    p_last_request_digest bytea)
RETURNS void LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_now timestamptz := now();
    v_finished timestamptz := CASE WHEN p_finished THEN clock_timestamp() END;
    v_renew_before timestamptz := now() + interval '25 minutes';
    v_expires timestamptz := now() + interval '30 minutes';
BEGIN
    UPDATE sessions SET state = p_state, last_msg_id = p_last_msg_id, last_response = p_last_response,
        last_response_content_type = p_last_response_type, last_request_digest = p_last_request_digest,
        device_id = NULLIF(p_device, 0), finished_at = coalesce(v_finished, finished_at), updated_at = v_now,
        client_address = CASE WHEN p_verified THEN p_address ELSE client_address END,
        authenticated_at = CASE WHEN p_verified THEN v_now ELSE authenticated_at END,
        expires_at = CASE WHEN expires_at < v_renew_before THEN v_expires ELSE expires_at END
    WHERE tenant_id = p_tenant AND user_id = p_owner AND session_id = p_session;
END
$$;
