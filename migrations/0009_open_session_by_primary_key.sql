-- syncml_open_session of 0008 with the lookup by RespURI key on the primary key alone. With the device and
-- SessionID as index conditions too, a plan made while the table had no statistics (a new database's first
-- minute, before autovacuum analyzed it) picked the index on (tenant_id, device_uri, created_at) and read every
-- session of the device of the last half hour: 94 us per lookup instead of 22 us in the load test.
CREATE OR REPLACE FUNCTION syncml_open_session(p_tenant bigint, p_device_uri text, p_session_id text, p_key bigint,
                                               p_msg_id text, p_user bigint)
RETURNS TABLE (r_session_id bigint, r_syncml_session_id text, r_device_uri text, r_user_id bigint, r_state bytea,
               r_last_msg_id text, r_last_response bytea, r_last_response_type text, r_device_id bigint,
               r_device_user_id bigint, r_nonce bytea, r_devinf bytea, r_superseded boolean, r_device_touched boolean)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    s sessions%ROWTYPE;
    d devices%ROWTYPE;
    touched boolean := false;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_tenant::text || '/' || p_device_uri, 0));
    IF p_key IS NOT NULL THEN
        -- IS NOT DISTINCT FROM is no index condition: device and SessionID cannot steer the plan to the
        -- device's index, and the primary key matches the key exactly.
        SELECT * INTO s FROM sessions
        WHERE tenant_id = p_tenant AND session_id = p_key AND device_uri IS NOT DISTINCT FROM p_device_uri
          AND syncml_session_id IS NOT DISTINCT FROM p_session_id AND expires_at > now()
        FOR UPDATE;
    END IF;
    IF s.session_id IS NULL THEN
        -- A live row is kept as it is (and locked by the update), an expired one starts afresh.
        INSERT INTO sessions AS o (tenant_id, device_uri, syncml_session_id, expires_at)
        VALUES (p_tenant, p_device_uri, p_session_id, now() + interval '30 minutes')
        ON CONFLICT (tenant_id, device_uri, syncml_session_id) DO UPDATE SET
            state = CASE WHEN o.expires_at > now() THEN o.state ELSE '\x' END,
            user_id = CASE WHEN o.expires_at > now() THEN o.user_id END,
            device_id = CASE WHEN o.expires_at > now() THEN o.device_id END,
            last_msg_id = CASE WHEN o.expires_at > now() THEN o.last_msg_id END,
            last_response = CASE WHEN o.expires_at > now() THEN o.last_response END,
            last_response_content_type = CASE WHEN o.expires_at > now() THEN o.last_response_content_type END,
            finished_at = CASE WHEN o.expires_at > now() THEN o.finished_at END,
            created_at = CASE WHEN o.expires_at > now() THEN o.created_at ELSE now() END,
            updated_at = CASE WHEN o.expires_at > now() THEN o.updated_at ELSE now() END,
            expires_at = CASE WHEN o.expires_at > now() THEN o.expires_at ELSE now() + interval '30 minutes' END
        RETURNING * INTO s;
    END IF;
    IF s.device_id IS NOT NULL THEN
        SELECT * INTO d FROM devices WHERE tenant_id = p_tenant AND device_id = s.device_id;
    END IF;
    IF p_user <> 0 AND s.last_msg_id IS DISTINCT FROM p_msg_id
       AND (p_msg_id = '1' OR d.device_id IS NULL OR d.user_id <> p_user) THEN
        INSERT INTO devices (tenant_id, user_id, device_uri, last_seen) VALUES (p_tenant, p_user, p_device_uri, now())
        ON CONFLICT (tenant_id, user_id, device_uri) DO UPDATE SET last_seen = now()
        RETURNING * INTO d;
        touched := true;
    END IF;
    RETURN QUERY SELECT s.session_id, s.syncml_session_id, s.device_uri, coalesce(s.user_id, 0), s.state,
        coalesce(s.last_msg_id, ''), coalesce(s.last_response, '\x'::bytea),
        coalesce(s.last_response_content_type, ''), coalesce(d.device_id, 0), coalesce(d.user_id, 0), d.nonce,
        d.devinf,
        EXISTS (SELECT 1 FROM sessions n WHERE n.tenant_id = s.tenant_id AND n.device_uri = s.device_uri
                AND n.syncml_session_id <> s.syncml_session_id AND n.user_id IS NOT NULL AND n.expires_at > now()
                AND coalesce(n.last_msg_id, '') <> '' AND n.created_at > s.created_at),
        touched;
END
$$;
