-- Failed authentications per user and per device, shared by every server instance so that a client
-- cannot spread guesses over instances. A row counts failures since window_start; once the window has
-- passed the next failure starts a new one, and a successful authentication deletes the row.
CREATE TABLE auth_failures (
    tenant_id bigint NOT NULL REFERENCES tenants ON DELETE CASCADE,
    scope text NOT NULL CHECK (scope IN ('user', 'device')),
    subject text NOT NULL,  -- user name or SyncML device id
    failures integer NOT NULL DEFAULT 0,
    window_start timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant_id, scope, subject)
);
CREATE INDEX auth_failures_by_window ON auth_failures (tenant_id, window_start);

-- Set when a session completed, which tells completed sessions from abandoned ones (superseded by a newer
-- session of the device, or expired).
ALTER TABLE sessions ADD COLUMN finished_at timestamptz;
