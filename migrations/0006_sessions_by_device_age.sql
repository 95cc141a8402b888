-- Whether a newer session of the device took over (read with the session row for every message) is a range
-- scan over the device's newer sessions, normally none, instead of a scan over all its sessions of the last
-- half hour.
CREATE INDEX sessions_by_device_age ON sessions (tenant_id, device_uri, created_at);
