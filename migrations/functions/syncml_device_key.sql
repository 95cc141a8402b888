-- The shard of a device id's own rows, which no user owns: the auth_failures counter of scope 'device' and the
-- session starts of the device (session_starts).
CREATE OR REPLACE FUNCTION syncml_device_key(p_tenant bigint, p_device_uri text) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT
PARALLEL SAFE AS $$ SELECT greatest(hashtextextended('device/' || p_tenant::text || '/' || p_device_uri, 0)
                                    & 9223372036854775807, 1) $$;
