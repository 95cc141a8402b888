#include "persistence/pg/detail/distributed_schema.hpp"

#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/migrations.hpp"

namespace syncml::persistence {
namespace {

// Each table is distributed once: all of them on the first run, afterwards a table a later migration added (a later
// migration's new function Citus propagates itself). Foreign keys of the tables to distribute go before and come
// back after: Citus creates a table's shards from its definition, and a key to a table not yet distributed (or one
// that makes a referencing table a "Citus local table") stops it. Rows move into the shards (a database of one
// PostgreSQL is distributed with its data).
constexpr const char* k_distribute = R"sql(
DO $distribute$
DECLARE
    -- Shared and small: a copy on every node, read by every message without a network hop.
    reference_tables text[] := ARRAY['tenants', 'server_secrets', 'janitor_lease', 'admin_tokens', 'admin_audit',
                                     'schema_migrations', 'push_budget'];
    -- A user's rows, all on the shard of the user's key.
    user_tables text[] := ARRAY['users', 'devices', 'datastores', 'items', 'item_match_keys', 'device_stores',
                                'mappings', 'sessions', 'resume_pointers', 'incoming_chunks', 'dav_names',
                                'known_clients', 'short_guids', 'push_devices', 'push_outbox',
                                'device_collections'];
    -- Keyed by something else than the user (auth_failures.shard_key, session_routes.device_key, ...), same group.
    other_keys text[][] := ARRAY[['auth_failures', 'shard_key'], ['session_routes', 'device_key'],
                                 ['session_starts', 'device_key']];
    todo text[];  -- names: undistribute_table below gives a table a new oid
    fk record;
    fn record;
    restore text[] := '{}';
    statement text;
    t text;
    i integer;
BEGIN
    SET LOCAL citus.enable_local_reference_table_foreign_keys = off;
    -- datastores carries the push trigger (migration 0036), which Citus copies to the shards only with this on.
    SET LOCAL citus.enable_unsafe_triggers = on;
    SELECT coalesce(array_agg(name), '{}') INTO todo
    FROM unnest(reference_tables || user_tables || ARRAY['auth_failures', 'session_routes', 'session_starts']) AS name
    WHERE to_regclass(name) IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM pg_dist_partition p WHERE p.logicalrelid = to_regclass(name)
                      AND (p.partmethod = 'h' OR p.repmodel = 't'));  -- distributed or reference table
    IF cardinality(todo) > 0 THEN
        FOR fk IN SELECT c.conrelid::regclass AS rel, c.conname, pg_get_constraintdef(c.oid) AS def
                  FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid
                  WHERE c.contype = 'f' AND r.relnamespace = current_schema()::regnamespace
                    AND (c.conrelid::regclass::text = ANY (todo) OR c.confrelid::regclass::text = ANY (todo)) LOOP
            restore := restore || format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.rel, fk.conname, fk.def);
            EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.rel, fk.conname);
        END LOOP;
        -- A table a later migration created with a key to a reference table became a Citus local table then.
        FOREACH t IN ARRAY todo LOOP
            IF EXISTS (SELECT 1 FROM pg_dist_partition p WHERE p.logicalrelid = t::regclass) THEN
                PERFORM undistribute_table(t);
            END IF;
        END LOOP;
        FOREACH t IN ARRAY reference_tables LOOP
            CONTINUE WHEN NOT t = ANY (todo);
            PERFORM create_reference_table(t);
            PERFORM truncate_local_data_after_distributing_table(t);  -- the coordinator's own copy, now hidden
        END LOOP;
        FOREACH t IN ARRAY user_tables LOOP
            CONTINUE WHEN NOT t = ANY (todo);
            IF t = 'users' THEN
                PERFORM create_distributed_table('users', 'user_id');
            ELSE
                PERFORM create_distributed_table(t, 'user_id', colocate_with => 'users');
            END IF;
            PERFORM truncate_local_data_after_distributing_table(t);
        END LOOP;
        FOR i IN 1 .. array_length(other_keys, 1) LOOP
            CONTINUE WHEN NOT other_keys[i][1] = ANY (todo);
            PERFORM create_distributed_table(other_keys[i][1], other_keys[i][2], colocate_with => 'users');
            PERFORM truncate_local_data_after_distributing_table(other_keys[i][1]);
        END LOOP;
        FOREACH statement IN ARRAY restore LOOP
            EXECUTE statement;
        END LOOP;
    END IF;
    -- The start and the end of every message and the opening of a device store run on the node of the message's
    -- owner, in one round trip.
    FOR fn IN SELECT p.oid::regprocedure AS signature FROM pg_proc p
              WHERE p.pronamespace = current_schema()::regnamespace
                AND p.proname IN ('syncml_open_session', 'syncml_save_session', 'syncml_open_device_store',
                                  'syncml_open_collection_store')
                AND 'p_owner' = ANY (p.proargnames)
                AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_object o WHERE o.classid = 'pg_proc'::regclass
                                AND o.objid = p.oid AND o.distribution_argument_index IS NOT NULL) LOOP
        PERFORM create_distributed_function(fn.signature, 'p_owner', colocate_with => 'users',
                                            force_delegation => true);
    END LOOP;
    -- The other functions (key functions, the helpers of the two above) on every node, including nodes added later.
    -- Functions created while Citus was there already are; those of a database that was one PostgreSQL first are not.
    -- Ours only: an extension's functions in the schema (Citus refuses them without a distribution argument) and
    -- another role's (it may not) would stop every migrate and every start.
    FOR fn IN SELECT p.oid::regprocedure AS signature FROM pg_proc p
              WHERE p.pronamespace = current_schema()::regnamespace AND p.proowner = current_user::regrole
                AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid
                                AND d.deptype = 'e')
                AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_object o WHERE o.classid = 'pg_proc'::regclass
                                AND o.objid = p.oid) LOOP
        PERFORM create_distributed_function(fn.signature);
    END LOOP;
END
$distribute$)sql";

}  // namespace

bool citus_installed(pqxx::work& tx) {
    return tx.exec1("SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')")[0].as<bool>();
}

bool schema_distributed(pqxx::work& tx) {
    if (!citus_installed(tx)) return false;
    return tx
        .exec1(
            "SELECT EXISTS (SELECT 1 FROM pg_dist_partition WHERE logicalrelid = to_regclass('users') "
            "AND to_regclass('users') IS NOT NULL)")[0]
        .as<bool>();
}

void create_citus_extension(database& db) {
    in_transaction(db, [](pqxx::work& tx) {
        if (!citus_installed(tx)) tx.exec("CREATE EXTENSION citus");
    });
}

void distribute_schema(pqxx::work& tx) { tx.exec(k_distribute); }

}  // namespace syncml::persistence
