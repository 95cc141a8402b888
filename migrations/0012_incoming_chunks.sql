-- Large objects a device sends in chunks (MoreData), one row per chunk (issue 15). They used to grow inside the
-- session's state, which every message rewrites whole: an object of n chunks wrote O(n^2) bytes (a 16 MB object in
-- 64 KB chunks about 2 GB). A message now appends its chunk; the last one reads and deletes them all. Keyed by the
-- device store, so that a resumed session (another SessionID) continues the object; byte_offset orders the chunks
-- and lets a reader check that none is missing.
CREATE TABLE incoming_chunks (
    tenant_id bigint NOT NULL,
    device_store_id bigint NOT NULL,
    byte_offset bigint NOT NULL CHECK (byte_offset >= 0),
    data bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, device_store_id, byte_offset),
    FOREIGN KEY (tenant_id, device_store_id) REFERENCES device_stores ON DELETE CASCADE
);
