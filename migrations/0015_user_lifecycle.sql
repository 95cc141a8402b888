-- A disabled user (issue 17, `admin user disable`) cannot log in; disabling also moves credentials_changed_at, so
-- that the user's live sessions end too (migrations/0010_session_binding.sql).
ALTER TABLE users ADD COLUMN disabled_at timestamptz;
