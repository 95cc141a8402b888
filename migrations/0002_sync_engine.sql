-- Server-wide secrets shared by every instance of one database: the key that signs RespURI session
-- tokens (any instance must verify a token another one issued). Not tenant data, so no tenant_id.
CREATE TABLE server_secrets (
    name text PRIMARY KEY,
    value text NOT NULL
);
INSERT INTO server_secrets (name, value)
VALUES ('resp_uri_token', replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));
