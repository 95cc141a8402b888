-- A client may reuse its SessionID for the next session, and MsgID 1 then names two different messages (issue 16):
-- a phone that fetched the server's DevInf in a session of its own and starts its sync with the same SessionID. A
-- message is a resend of the last answered one only when its body has the same SHA-256 as well.
ALTER TABLE sessions ADD COLUMN last_request_digest bytea;

DROP FUNCTION syncml_open_session(bigint, text, text, bigint, text, bigint, text, double precision, double precision,
                                  integer, integer);

-- As in 0013_tenant_session_limit.sql, with the digest of the last answered message.
CREATE FUNCTION syncml_open_session(p_tenant bigint, p_device_uri text, p_session_id text, p_key bigint,
                                    p_msg_id text, p_user bigint, p_address text, p_address_idle_secs double precision,
                                    p_max_age_secs double precision, p_max_devices integer,
                                    p_max_sessions integer)
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
    max_age interval := make_interval(secs => p_max_age_secs);
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_tenant::text || '/' || p_device_uri, 0));
    IF p_key IS NOT NULL AND (p_user <> 0 OR p_msg_id <> '1') THEN
        -- IS NOT DISTINCT FROM is no index condition: the primary key matches the key exactly (see 0009).
        SELECT * INTO s FROM sessions
        WHERE tenant_id = p_tenant AND session_id = p_key AND device_uri IS NOT DISTINCT FROM p_device_uri
          AND syncml_session_id IS NOT DISTINCT FROM p_session_id AND expires_at > now()
          AND created_at > now() - max_age AND user_id IS NOT NULL AND (p_user = 0 OR user_id = p_user)
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
        IF p_max_sessions > 0
           AND NOT EXISTS (SELECT 1 FROM sessions WHERE tenant_id = p_tenant AND device_uri = p_device_uri
                           AND syncml_session_id = p_session_id AND user_id = p_user AND expires_at > now()
                           AND created_at > now() - max_age)
           AND (SELECT count(*) FROM (SELECT 1 FROM sessions
                                      WHERE tenant_id = p_tenant AND finished_at IS NULL AND user_id IS NOT NULL
                                        AND created_at > now() - max_age
                                        AND updated_at > now() - interval '10 minutes' AND expires_at > now()
                                      LIMIT p_max_sessions) live) >= p_max_sessions THEN
            RETURN QUERY SELECT NULL::bigint, NULL::text, NULL::text, NULL::bigint, NULL::bytea, NULL::text,
                NULL::bytea, NULL::text, NULL::bigint, NULL::bigint, NULL::bytea, NULL::bytea, false, false, false,
                true, NULL::bytea;
            RETURN;
        END IF;
        -- A live row is kept as it is (and locked by the update), an expired one starts afresh.
        INSERT INTO sessions AS o (tenant_id, device_uri, syncml_session_id, user_id, client_address,
                                   authenticated_at, expires_at)
        VALUES (p_tenant, p_device_uri, p_session_id, p_user, p_address, now(), now() + interval '30 minutes')
        ON CONFLICT (tenant_id, device_uri, syncml_session_id, user_id) DO UPDATE SET
            state = CASE WHEN o.expires_at > now() AND o.created_at > now() - max_age THEN o.state ELSE '\x' END,
            device_id = CASE WHEN o.expires_at > now() AND o.created_at > now() - max_age THEN o.device_id END,
            last_msg_id = CASE WHEN o.expires_at > now() AND o.created_at > now() - max_age THEN o.last_msg_id END,
            last_response = CASE WHEN o.expires_at > now() AND o.created_at > now() - max_age
                                 THEN o.last_response END,
            last_response_content_type = CASE WHEN o.expires_at > now() AND o.created_at > now() - max_age
                                              THEN o.last_response_content_type END,
            last_request_digest = CASE WHEN o.expires_at > now() AND o.created_at > now() - max_age
                                       THEN o.last_request_digest END,
            finished_at = CASE WHEN o.expires_at > now() AND o.created_at > now() - max_age THEN o.finished_at END,
            created_at = CASE WHEN o.expires_at > now() AND o.created_at > now() - max_age
                              THEN o.created_at ELSE now() END,
            updated_at = now(),
            expires_at = CASE WHEN o.expires_at > now() AND o.created_at > now() - max_age
                              THEN o.expires_at ELSE now() + interval '30 minutes' END,
            client_address = EXCLUDED.client_address,
            authenticated_at = now()
        RETURNING * INTO s;
    END IF;
    IF s.session_id IS NULL AND p_user = 0 AND p_msg_id <> '1' AND p_address_idle_secs > 0
       AND coalesce(p_address, '') <> '' THEN
        SELECT * INTO s FROM sessions
        WHERE tenant_id = p_tenant AND device_uri = p_device_uri AND syncml_session_id = p_session_id
          AND user_id IS NOT NULL AND client_address = p_address
          AND updated_at > now() - make_interval(secs => p_address_idle_secs)
          AND expires_at > now() AND created_at > now() - max_age
          AND syncml_session_credentials_current(p_tenant, user_id, authenticated_at)
        ORDER BY updated_at DESC LIMIT 1
        FOR UPDATE;
    END IF;
    IF s.session_id IS NULL THEN
        RETURN;
    END IF;
    IF s.device_id IS NOT NULL THEN
        SELECT * INTO d FROM devices WHERE tenant_id = p_tenant AND device_id = s.device_id;
    END IF;
    IF p_user <> 0 AND s.last_msg_id IS DISTINCT FROM p_msg_id
       AND (p_msg_id = '1' OR d.device_id IS NULL OR d.user_id <> p_user) THEN
        IF NOT EXISTS (SELECT 1 FROM devices WHERE tenant_id = p_tenant AND user_id = p_user
                       AND device_uri = p_device_uri)
           AND (SELECT count(*) FROM devices WHERE tenant_id = p_tenant AND user_id = p_user) >= p_max_devices THEN
            refused := true;
        ELSE
            INSERT INTO devices (tenant_id, user_id, device_uri, last_seen)
            VALUES (p_tenant, p_user, p_device_uri, now())
            ON CONFLICT (tenant_id, user_id, device_uri) DO UPDATE SET last_seen = now()
            RETURNING * INTO d;
            touched := true;
        END IF;
    END IF;
    RETURN QUERY SELECT s.session_id, s.syncml_session_id, s.device_uri, coalesce(s.user_id, 0), s.state,
        coalesce(s.last_msg_id, ''), coalesce(s.last_response, '\x'::bytea),
        coalesce(s.last_response_content_type, ''), coalesce(d.device_id, 0), coalesce(d.user_id, 0), d.nonce,
        d.devinf,
        EXISTS (SELECT 1 FROM sessions n WHERE n.tenant_id = s.tenant_id AND n.device_uri = s.device_uri
                AND n.syncml_session_id <> s.syncml_session_id AND n.user_id = s.user_id AND n.expires_at > now()
                AND coalesce(n.last_msg_id, '') <> '' AND n.created_at > s.created_at),
        touched, refused, false, coalesce(s.last_request_digest, '\x'::bytea);
END
$$;
