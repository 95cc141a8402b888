-- backward-compatible: yes
-- On a distributed database (persistence/DISTRIBUTED.md), where a phone's session went on: a message that continues
-- a session by its address (no RespURI token, no credentials; tenants with session binding token-or-address) knows
-- the device id and the SessionID but not the user, and a search across users would span every shard. This table,
-- distributed by the device key, names the user whose shard to look on. It is written after a message with valid
-- credentials, outside that message's transaction, and only says where to look: the session row on the user's shard
-- still decides (the same address, the idle time, credentials still current). One database does not use it.
CREATE TABLE session_routes (
    device_key bigint NOT NULL,
    tenant_id bigint NOT NULL REFERENCES tenants ON DELETE CASCADE,
    device_uri text NOT NULL,
    syncml_session_id text NOT NULL,
    user_id bigint NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, device_key, device_uri, syncml_session_id)
);
