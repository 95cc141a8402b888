-- Whether the user's credentials are unchanged since the session authenticated. plpgsql, whose body is resolved
-- when first run: users.credentials_changed_at came with migration 0011, after this function (0010).
CREATE OR REPLACE FUNCTION syncml_session_credentials_current(p_tenant bigint, p_user bigint, p_authenticated_at timestamptz)
RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN p_authenticated_at IS NOT NULL AND EXISTS (
        SELECT 1 FROM users u WHERE u.tenant_id = p_tenant AND u.user_id = p_user
          AND u.credentials_changed_at <= p_authenticated_at);
END
$$;
