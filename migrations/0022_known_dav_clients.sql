-- backward-compatible: yes
-- The client addresses from which a user's CardDAV/CalDAV clients logged in (issue 19). A DAV client has no device
-- id, so without this a stranger's failed logins for a user name anywhere would block every DAV client of that
-- user (the throttle's user-wide count, meant for devices never seen). A known address is blocked only by failures
-- from that address, as a phone that authenticated before is. Rows untouched for 30 days go (janitor).
CREATE TABLE known_clients (
    tenant_id bigint NOT NULL,
    user_id bigint NOT NULL,
    address text NOT NULL,
    last_login timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, user_id, address),
    FOREIGN KEY (tenant_id, user_id) REFERENCES users ON DELETE CASCADE
);
CREATE INDEX known_clients_by_age ON known_clients (tenant_id, last_login);
