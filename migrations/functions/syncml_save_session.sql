-- The end of every message: the session row as the engine leaves it (sql::save_session), bound to its owner. A
-- function, so that its times are values: a distributed database plans an UPDATE before it runs and refuses clock
-- functions inside CASE there. The expiry (an indexed column) moves only when it is 5 minutes old, so the other
-- messages of a session update its row in place (HOT: no new index entries). Delegated to the owner's node on a
-- distributed database (persistence/pg/distributed_schema.cpp).
CREATE OR REPLACE FUNCTION syncml_save_session(p_owner bigint, p_tenant bigint, p_session bigint, p_state bytea,
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
