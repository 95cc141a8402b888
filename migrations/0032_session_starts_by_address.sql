-- backward-compatible: yes
-- (A column with a constant default: servers of the version before write starts without it, which this version's
-- routes do not match, so their address-continued messages get a challenge and the phone logs in again.)
-- Another user's activity changed how a phone's session continued by address (issue 35): on one database a co-user
-- who replayed her device id and SessionID with his own credentials anywhere, on a distributed one a single
-- credentialed message of his with her device id, made her phone's next messages without token or credentials
-- ambiguous, and they got a challenge for hours. Now another user's session of the device id and SessionID counts
-- only when it is at the message's address (it could be his phone behind the same NAT) or started before hers (it
-- could be his phone, moved to this address); a later one elsewhere cannot be the sender. syncml_open_session
-- (functions/) compares the sessions' client_address and created_at; session_starts records the address of the
-- start and since when the user has had that SessionID (`since`: started_at is refreshed hourly).
-- With it syncml_open_session (functions/, applied with this migration) also starts a new session when MsgID 1 comes
-- with the SessionID of an earlier session of the device that went past its message 1 or ended (issue 36: a phone
-- whose SessionID counter wrapped or restarted got busy on its next message, for good).
-- One DO block: Citus refuses a file of several commands (see 0028).
DO $$
BEGIN
    ALTER TABLE session_starts ADD COLUMN client_address text NOT NULL DEFAULT '';
    ALTER TABLE session_starts ADD COLUMN since timestamptz;
END
$$;
