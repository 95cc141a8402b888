-- backward-compatible: yes
-- (A column added to devices and to the result of syncml_open_session, read by name; servers of the version before
-- read the columns they know.)
-- Continuing a session by the client's address is an opt-in. A message from the phone's public address (a carrier's
-- NAT, an office, a public Wi-Fi: everyone there shares it) with the phone's device id and live SessionID, without
-- RespURI token or credentials, went on in the phone's session: it read her items (a resend returned the stored
-- reply), stored Adds in her account and deleted what it named. OMA DS says clients MUST use the RespURI, so the
-- binding of every tenant becomes the token; an operator turns address continuation on for a tenant whose phones
-- ignore RespURI (README, "Sessions"), and the tenants that had it by the old default lose it here.
-- syncml_open_session now says which way it found the session (r_by_address): such a message never gets the stored
-- reply of a resend, and devices.address_continued_at shows the operator which devices continue by address.
-- One DO block: on a distributed schema Citus refuses this file as a string of several commands ("cannot insert
-- multiple commands into a prepared statement"); in a block each statement runs on its own.
DO $$
BEGIN
    ALTER TABLE tenants ALTER COLUMN session_binding SET DEFAULT 'token';
    UPDATE tenants SET session_binding = 'token' WHERE session_binding = 'token-or-address';
    ALTER TABLE devices ADD COLUMN address_continued_at timestamptz;
    DROP FUNCTION syncml_open_session(bigint, bigint, text, text, bigint, text, bigint, text, double precision,
                                      double precision, integer, integer);
END
$$;
