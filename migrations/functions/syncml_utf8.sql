-- UTF-8 bytes as text. convert_from is STABLE, and a distributed database refuses STABLE functions over columns in an
-- UPDATE (item_batch_sql.hpp packs a batch's contents into one bytea); the database's encoding never changes, so the
-- result depends on the argument alone.
CREATE OR REPLACE FUNCTION syncml_utf8(p_bytes bytea) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT convert_from(p_bytes, 'UTF8') $$;
