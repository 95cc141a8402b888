-- The start of every message's transaction in one round trip (sql::open_session): the device lock, then the session
-- the message may continue, bound to its owner p_owner (the user of its valid credentials or of its RespURI token;
-- 0: neither, one database only). Found
--   1. by its RespURI key (p_key, from a token whose signature the caller verified) when device and SessionID match,
--      the session is within its absolute lifetime (and, for MsgID 1, still at its message 1 and not ended) and,
--      without valid credentials in the message (p_user = 0), the user's credentials did not change since it
--      authenticated;
--   2. else, with valid credentials (p_user <> 0), by (device, SessionID, user): created, or restarted when it
--      expired or when MsgID 1 comes to a row past its message 1 or ended (a reused SessionID), unless the tenant's
--      p_max_sessions are live (r_sessions_refused; a distributed database passes 0);
--   3. else, for a message other than MsgID 1 and with p_address_idle_secs > 0, by (device, SessionID) among the
--      sessions last authenticated from p_address and active within the idle window, credentials unchanged; without
--      an owner none while another user has a live session of the device with that SessionID last authenticated
--      from p_address too, or one that started earlier (either could be that user's phone). r_by_address says so: such a message never gets the stored reply of a resend, and the
--      device's address_continued_at shows the operator (at most once a minute) that it continues this way.
-- No row at all when none applies: the caller answers with a challenge and writes nothing. The device row of p_user
-- is upserted (last seen); r_device_refused says the user has p_max_devices devices already and this one is new.
-- Times are taken once into variables: a distributed database routes a statement before it runs, so values, not
-- functions, go into upserts. Delegated to the owner's node there (persistence/pg/distributed_schema.cpp).
CREATE OR REPLACE FUNCTION syncml_open_session(p_owner bigint, p_tenant bigint, p_device_uri text, p_session_id text,
                                    p_key bigint, p_msg_id text, p_user bigint, p_address text,
                                    p_address_idle_secs double precision, p_max_age_secs double precision,
                                    p_max_devices integer, p_max_sessions integer)
RETURNS TABLE (r_session_id bigint, r_syncml_session_id text, r_device_uri text, r_user_id bigint, r_state bytea,
               r_last_msg_id text, r_last_response bytea, r_last_response_type text, r_device_id bigint,
               r_device_user_id bigint, r_nonce bytea, r_devinf bytea, r_superseded boolean, r_device_touched boolean,
               r_device_refused boolean, r_sessions_refused boolean, r_last_request_digest bytea,
               r_by_address boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    s sessions%ROWTYPE;
    d devices%ROWTYPE;
    touched boolean := false;
    refused boolean := false;
    by_address boolean := false;
    live boolean;
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
          AND NOT (p_msg_id = '1' AND (finished_at IS NOT NULL OR coalesce(last_msg_id, '1') <> '1'))
        FOR UPDATE;
        IF s.session_id IS NOT NULL AND p_user = 0
           AND NOT syncml_session_credentials_current(p_tenant, s.user_id, s.authenticated_at) THEN
            s := NULL;
        END IF;
    END IF;
    IF s.session_id IS NULL AND p_user <> 0 THEN
        -- MsgID 1 on a row of this SessionID that went past its message 1, or ended, is a new session of a phone whose
        -- SessionID counter wrapped or restarted: that row counts as expired and starts afresh below (a resend of
        -- message 1 finds a row still at message 1). Kept as it was, every session of the device since would count
        -- as newer and the new one's next message would get busy.
        IF p_msg_id = '1' THEN
            UPDATE sessions SET expires_at = v_now
            WHERE tenant_id = p_tenant AND user_id = p_user AND device_uri = p_device_uri
              AND syncml_session_id = p_session_id AND expires_at > v_now
              AND (finished_at IS NOT NULL OR coalesce(last_msg_id, '1') <> '1');
        END IF;
        -- A session that starts (no live row of this user, device and SessionID) needs a free place among the
        -- tenant's p_max_sessions. Counted without a lock on the tenant: concurrent starts on different devices
        -- may overshoot by the number of workers, which is fine for a bound on load.
        -- The count spans the tenant's users, so a distributed database (where it would span shards) passes 0
        -- and bounds the tenant's sessions from a count it refreshes in the background. Nested IFs: the count runs
        -- only when needed, never planned for nothing.
        IF p_max_sessions > 0 THEN
            -- The row by its unique key, its liveness checked here: with the age in the WHERE, the planner may take
            -- (tenant_id, user_id, device_uri, created_at) instead and read the device's whole history.
            SELECT o.expires_at > v_now AND o.created_at > v_oldest INTO live FROM sessions o
            WHERE o.tenant_id = p_tenant AND o.user_id = p_user AND o.device_uri = p_device_uri
              AND o.syncml_session_id = p_session_id;
            IF NOT coalesce(live, false)
               AND (SELECT count(*) FROM (SELECT 1 FROM sessions
                                          WHERE tenant_id = p_tenant AND finished_at IS NULL
                                            AND user_id IS NOT NULL  -- the predicate of sessions_unfinished
                                            AND created_at > v_oldest
                                            AND updated_at > v_now - interval '10 minutes' AND expires_at > v_now
                                          LIMIT p_max_sessions) live) >= p_max_sessions THEN
                RETURN QUERY SELECT NULL::bigint, NULL::text, NULL::text, NULL::bigint, NULL::bytea, NULL::text,
                    NULL::bytea, NULL::text, NULL::bigint, NULL::bigint, NULL::bytea, NULL::bytea, false, false,
                    false, true, NULL::bytea, false;
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
        -- A session that starts ends the device's older ones: their later messages get busy (r_superseded), and they no
        -- longer count among the tenant's live sessions, so one user restarting a device (or a script) cannot fill
        -- the tenant's p_max_sessions. A user's live sessions are thus at most the user's devices.
        IF s.created_at = v_now THEN
            UPDATE sessions SET finished_at = v_now
            WHERE tenant_id = p_tenant AND user_id = p_user AND device_uri = p_device_uri
              AND syncml_session_id <> p_session_id AND finished_at IS NULL AND expires_at > v_now;
        END IF;
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
            -- Another user has a live session of the device with this SessionID at this address, however idle, or
            -- one that started before this one anywhere: the message could be that user's phone (behind the same
            -- address, or moved here), so it continues neither session. A later one elsewhere does not count: else
            -- anyone with an account could stop a phone's continuation by replaying its device id and SessionID with
            -- his own credentials.
            IF s.session_id IS NOT NULL AND EXISTS (
                SELECT 1 FROM sessions
                WHERE tenant_id = p_tenant AND device_uri = p_device_uri AND syncml_session_id = p_session_id
                  AND user_id <> s.user_id AND expires_at > v_now AND created_at > v_oldest
                  AND (client_address = p_address OR created_at < s.created_at)) THEN
                s := NULL;
            END IF;
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
    by_address := p_user = 0 AND (p_key IS NULL OR s.session_id <> p_key);
    IF s.device_id IS NOT NULL THEN
        IF by_address THEN
            UPDATE devices SET address_continued_at = v_now
            WHERE tenant_id = p_tenant AND user_id = s.user_id AND device_id = s.device_id
              AND (address_continued_at IS NULL OR address_continued_at < v_now - interval '1 minute');
        END IF;
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
        touched, refused, false, coalesce(s.last_request_digest, '\x'::bytea), by_address;
END
$$;
