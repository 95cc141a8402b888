-- Password storage (issue 15). The SyncML md5 secret b64(md5(user ":" password)) is a password equivalent, so
-- it is kept only for tenants with md5 auth on, and then encrypted (AES-256-GCM) with a server key that lives
-- outside the database (persistence/secret_key.hpp): md5_secret_sealed. The key is not known here, so the
-- plaintext secrets of md5 tenants move to legacy_md5_secret, which the server seals with its key when it
-- starts (persistence::seal_legacy_md5_secrets) and then clears; those of tenants with md5 off are dropped now.
ALTER TABLE users ALTER COLUMN md5_secret DROP NOT NULL;
ALTER TABLE users RENAME COLUMN md5_secret TO legacy_md5_secret;
UPDATE users u SET legacy_md5_secret = NULL FROM tenants t WHERE t.tenant_id = u.tenant_id AND NOT t.auth_md5;
ALTER TABLE users ADD COLUMN md5_secret_sealed bytea;

-- When the password or the md5 secret last changed (set by persistence/accounts.cpp): a session authenticated
-- before that is ended.
ALTER TABLE users ADD COLUMN credentials_changed_at timestamptz NOT NULL DEFAULT now();
