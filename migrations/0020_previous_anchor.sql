-- backward-compatible: yes
-- Interrupted sessions (issue 16): the client anchor and last seen modseq of the sync before the last completed one.
-- A client that lost that completion (its last reply never arrived, or it rolled the session back) presents the
-- previous anchor; its slow sync then knows what the device had seen, and which of its copies are stale.
ALTER TABLE device_stores ADD COLUMN previous_client_anchor text, ADD COLUMN previous_modseq_seen bigint NOT NULL DEFAULT 0;
