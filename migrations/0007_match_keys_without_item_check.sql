-- Issue 8: match keys are a derived index of items, written only together with their item (one batch per
-- message) and read only joined to it, so a foreign-key check per key row (~5 per contact, the largest
-- per-item cost of a slow sync) guards nothing our writes could get wrong. Items are never deleted one by one
-- (deletes leave tombstones and drop their keys), only with their datastore: that is when keys must go too.
ALTER TABLE item_match_keys DROP CONSTRAINT item_match_keys_tenant_id_item_id_fkey;

CREATE FUNCTION drop_match_keys_of_datastore() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM item_match_keys WHERE tenant_id = OLD.tenant_id AND datastore_id = OLD.datastore_id;
    RETURN OLD;
END
$$;

CREATE TRIGGER datastores_drop_match_keys AFTER DELETE ON datastores
    FOR EACH ROW EXECUTE FUNCTION drop_match_keys_of_datastore();
