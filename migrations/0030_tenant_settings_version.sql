-- backward-compatible: yes
-- (A column with a default; servers of the version before neither read nor bump it.)
-- A change of a tenant's settings took up to SYNCML_TENANT_CACHE_TTL (60 s) to reach the sync path of each instance:
-- md5 was still offered after `--auth-md5 off`, address continuation still on after the binding went back to token.
-- update_tenant bumps settings_version; each instance compares the tenants' sum and count at most once a second and
-- forgets its cached tenants when they changed.
ALTER TABLE tenants ADD COLUMN settings_version bigint NOT NULL DEFAULT 0;
