-- Issue 8: a slow sync writes its items in batches, and at ~4 match keys per contact each foreign-key check
-- per key row is a large share of the cost. The key's item already references the datastore (and deleting a
-- datastore cascades through its items to their keys), so the keys' own reference to the datastore checks
-- nothing the item reference does not.
ALTER TABLE item_match_keys DROP CONSTRAINT item_match_keys_tenant_id_datastore_id_fkey;
