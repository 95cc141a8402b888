-- backward-compatible: yes
-- (A column that fills itself and one more scope: servers of the version before neither read last_failure nor write
-- or read 'user_device' rows.)
-- The user-wide failure counters back off exponentially (issue 35): an attacker who rotates addresses paid only the
-- per-address counter before. A counter of the user ('user') and of the user with one device id ('user_device')
-- remembers its failures until a day passes without one and blocks for twice as long after each failure beyond the
-- allowed count; last_failure is when that was. The 'user_device' counter blocks a device the user authenticated
-- before, but only at addresses she has not logged in from (see auth_throttle).
-- On a distributed database ADD COLUMN takes no default that is not immutable: the default comes after the rows
-- have their values. One DO block: Citus refuses a file of several commands (see 0028).
DO $$
BEGIN
    ALTER TABLE auth_failures ADD COLUMN last_failure timestamptz;
    UPDATE auth_failures SET last_failure = window_start;
    ALTER TABLE auth_failures ALTER COLUMN last_failure SET DEFAULT now();
    ALTER TABLE auth_failures ALTER COLUMN last_failure SET NOT NULL;
    ALTER TABLE auth_failures DROP CONSTRAINT auth_failures_scope_check;
    ALTER TABLE auth_failures ADD CONSTRAINT auth_failures_scope_check
        CHECK (scope IN ('user', 'device', 'user_address', 'user_device'));
END
$$;
