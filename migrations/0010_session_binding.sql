-- Sessions belong to the user who authenticated them (issue 15). A session row exists only once a message of it
-- authenticated; a later message continues it only when it proves it may: valid credentials of that user, the
-- signed RespURI token, or (tenants.session_binding = 'token-or-address') the client address the session was
-- authenticated from, within a short idle window. Device id and SessionID alone are public knowledge (an IMEI and
-- a small counter) and find nothing.

-- Many real phones ignore RespURI and send later messages without Cred; 'token' refuses them, the default keeps
-- them working as long as they come from the address that authenticated.
ALTER TABLE tenants ADD COLUMN session_binding text NOT NULL DEFAULT 'token-or-address'
    CHECK (session_binding IN ('token', 'token-or-address'));

-- The address the session last authenticated from and when; a password changed after authenticated_at
-- (users.credentials_changed_at, added by migration 0011) ends the session for every message that does not carry the new
-- credentials.
ALTER TABLE sessions ADD COLUMN client_address text;
ALTER TABLE sessions ADD COLUMN authenticated_at timestamptz;

-- Rows that never authenticated (every anonymous POST used to leave one) are no session of anybody.
DELETE FROM sessions WHERE user_id IS NULL AND syncml_session_id NOT LIKE 'resume:%';

-- Keyed by user too: another user's session on the same device id never meets this one. The resume pointer rows
-- (no user) stay unique per device and name.
ALTER TABLE sessions DROP CONSTRAINT sessions_tenant_id_device_uri_syncml_session_id_key;
ALTER TABLE sessions ADD CONSTRAINT sessions_by_device_session_user
    UNIQUE NULLS NOT DISTINCT (tenant_id, device_uri, syncml_session_id, user_id);

-- Whether the user's credentials are unchanged since the session authenticated. plpgsql, whose body is resolved
-- when first run: users.credentials_changed_at comes with migration 0011.
CREATE FUNCTION syncml_session_credentials_current(p_tenant bigint, p_user bigint, p_authenticated_at timestamptz)
RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN p_authenticated_at IS NOT NULL AND EXISTS (
        SELECT 1 FROM users u WHERE u.tenant_id = p_tenant AND u.user_id = p_user
          AND u.credentials_changed_at <= p_authenticated_at);
END
$$;

DROP FUNCTION syncml_open_session(bigint, text, text, bigint, text, bigint);

-- The start of every message's transaction in one round trip: the device lock, then the session the message may
-- continue, found
--   1. by its RespURI key (p_key, from a token whose signature the caller verified) when device and SessionID
--      match, the session is within its absolute lifetime and, without valid credentials in the message
--      (p_user = 0), the user's credentials did not change since it authenticated;
--   2. else, with valid credentials (p_user <> 0), by (device, SessionID, user): created, or restarted when it
--      expired;
--   3. else, for a message other than MsgID 1 and with p_address_idle_secs > 0, by (device, SessionID) among the
--      sessions last authenticated from p_address and active within the idle window, credentials unchanged.
-- No row at all when none applies: the caller answers with a challenge and writes nothing.
-- The device row of p_user is upserted (last seen) as in 0008/0009; r_device_refused says the user has
-- p_max_devices devices already and this one is new.
CREATE FUNCTION syncml_open_session(p_tenant bigint, p_device_uri text, p_session_id text, p_key bigint,
                                    p_msg_id text, p_user bigint, p_address text, p_address_idle_secs double precision,
                                    p_max_age_secs double precision, p_max_devices integer)
RETURNS TABLE (r_session_id bigint, r_syncml_session_id text, r_device_uri text, r_user_id bigint, r_state bytea,
               r_last_msg_id text, r_last_response bytea, r_last_response_type text, r_device_id bigint,
               r_device_user_id bigint, r_nonce bytea, r_devinf bytea, r_superseded boolean, r_device_touched boolean,
               r_device_refused boolean)
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
        touched, refused;
END
$$;

-- Failed logins are also counted per user and client address: a device the user authenticated before is blocked
-- only by its own address's failures, never by a stranger guessing that user's password (see auth_throttle).
ALTER TABLE auth_failures DROP CONSTRAINT auth_failures_scope_check;
ALTER TABLE auth_failures ADD CONSTRAINT auth_failures_scope_check
    CHECK (scope IN ('user', 'device', 'user_address'));
