-- backward-compatible: yes
-- On a distributed database (persistence/DISTRIBUTED.md), where a phone's sessions are: a message that continues a
-- session by its address (no RespURI token, no credentials; tenants with session binding token-or-address) knows the
-- device id and its address but not the user, and a search across users would span every shard. This table,
-- distributed by the device key, names the user whose shard to look on, one row per device and address. It is
-- written after a message with valid credentials that starts a session or moves it to another address, outside that
-- message's transaction, and only says where to look: the session row on the user's shard still decides (SessionID,
-- the same address, the idle time, credentials still current). The address is part of the key: another user's
-- session of the same device id, started from elsewhere, cannot take the route of a phone's address. No key to
-- tenants (on Citus that would make the table a local one until distributed): a tenant delete deletes its routes.
-- One database does not use it.
CREATE TABLE session_routes (
    device_key bigint NOT NULL,
    tenant_id bigint NOT NULL,
    device_uri text NOT NULL,
    client_address text NOT NULL,
    user_id bigint NOT NULL,
    updated_at timestamptz NOT NULL,
    stale_at timestamptz NOT NULL,  -- the same route written again after this refreshes updated_at
    PRIMARY KEY (tenant_id, device_key, device_uri, client_address)
);
-- The janitor's (routes not refreshed for two days).
CREATE INDEX session_routes_by_age ON session_routes (tenant_id, updated_at);
