-- A user's id, derived from what a login knows (persistence/DISTRIBUTED.md): on a distributed database every row of a
-- user lives on the shard of this key, and a login finds it without a lookup. hashtextextended is the hash of
-- PostgreSQL's own hash partitioning, stable across versions and platforms; a CHECK constraint of users depends on it.
CREATE OR REPLACE FUNCTION syncml_user_key(p_tenant bigint, p_name text) RETURNS bigint LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT greatest(hashtextextended(p_tenant::text || '/' || p_name, 0) & 9223372036854775807, 1) $$;
