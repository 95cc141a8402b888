-- backward-compatible: yes
-- (An index only.)
-- The keys of syncml_open_session's "superseded" test (a newer session of the same user's device with a message) are
-- (tenant_id, user_id, device_uri, created_at) since sessions are keyed by user (0023): sessions_by_device_age lacks
-- user_id, and the unique (tenant_id, user_id, device_uri, syncml_session_id) gives no order by age, so the test
-- read every session row of the device and a phone syncing in a loop got slower with its history (issue 40;
-- tests/integration/hot_path_plans.sh).
CREATE INDEX sessions_by_user_device_age ON sessions (tenant_id, user_id, device_uri, created_at);
