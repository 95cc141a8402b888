-- Issue 7: field-by-field merge becomes a conflict policy and the default one. Tenants that never
-- chose a policy (the default tenant kept the old default) move to it; explicit choices stay.
ALTER TABLE tenants DROP CONSTRAINT IF EXISTS tenants_conflict_policy_check;
ALTER TABLE tenants ADD CONSTRAINT tenants_conflict_policy_check
    CHECK (conflict_policy IN ('merge', 'server_wins', 'client_wins', 'newest_wins', 'duplicate'));
ALTER TABLE tenants ALTER COLUMN conflict_policy SET DEFAULT 'merge';
UPDATE tenants SET conflict_policy = 'merge' WHERE name = 'default' AND conflict_policy = 'server_wins';
