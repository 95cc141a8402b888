-- backward-compatible: yes
-- Filtered syncs (issue 18): the filter a device's datastore last completed a sync with (matching/filter_codec.hpp
-- text; empty: none). The next session compares it with the filter in effect: a change means the device's view moved,
-- so package 4 looks at every item the device does not hold instead of the changes since its last sync.
ALTER TABLE device_stores ADD COLUMN sync_filter text NOT NULL DEFAULT '';
