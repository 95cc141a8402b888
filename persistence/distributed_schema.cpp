#include "persistence/detail/distributed_schema.hpp"

#include "persistence/detail/connection_access.hpp"
#include "persistence/migrations.hpp"

namespace syncml::persistence {
namespace {

// Foreign keys go before distribution and come back after it: Citus creates a table's shards from its definition,
// and a key to a table not yet distributed (or one that makes a referencing table a "Citus local table") stops it.
// The tables are empty or small at this point (a fresh or freshly migrated database); their rows move into shards.
constexpr const char* k_distribute = R"sql(
DO $distribute$
DECLARE
    fk record;
    fn record;
    restore text[] := '{}';
    statement text;
    t text;
BEGIN
    SET LOCAL citus.enable_local_reference_table_foreign_keys = off;
    FOR fk IN SELECT c.conrelid::regclass AS rel, c.conname, pg_get_constraintdef(c.oid) AS def
              FROM pg_constraint c JOIN pg_class r ON r.oid = c.conrelid
              WHERE c.contype = 'f' AND r.relnamespace = current_schema()::regnamespace LOOP
        restore := restore || format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.rel, fk.conname, fk.def);
        EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.rel, fk.conname);
    END LOOP;
    -- Shared and small: a copy on every node, read by every message without a network hop.
    FOREACH t IN ARRAY ARRAY['tenants', 'server_secrets', 'janitor_lease', 'admin_tokens', 'admin_audit',
                             'schema_migrations'] LOOP
        PERFORM create_reference_table(t);
        PERFORM truncate_local_data_after_distributing_table(t);  -- the coordinator's own copy, now hidden
    END LOOP;
    -- A user's rows, all on the shard of the user's key.
    PERFORM create_distributed_table('users', 'user_id');
    PERFORM truncate_local_data_after_distributing_table('users');
    FOREACH t IN ARRAY ARRAY['devices', 'datastores', 'items', 'item_match_keys', 'device_stores', 'mappings',
                             'sessions', 'resume_pointers', 'incoming_chunks', 'dav_names', 'known_clients'] LOOP
        PERFORM create_distributed_table(t, 'user_id', colocate_with => 'users');
        PERFORM truncate_local_data_after_distributing_table(t);
    END LOOP;
    PERFORM create_distributed_table('auth_failures', 'shard_key', colocate_with => 'users');
    PERFORM truncate_local_data_after_distributing_table('auth_failures');
    FOREACH statement IN ARRAY restore LOOP
        EXECUTE statement;
    END LOOP;
    -- The start and the end of every message run on the node of the message's owner, in one round trip.
    PERFORM create_distributed_function(
        'syncml_open_session(bigint, bigint, text, text, bigint, text, bigint, text, double precision, '
        'double precision, integer, integer)', 'p_owner', colocate_with => 'users', force_delegation => true);
    PERFORM create_distributed_function(
        'syncml_save_session(bigint, bigint, bigint, bytea, text, bytea, text, bigint, boolean, boolean, text, '
        'bytea)', 'p_owner', colocate_with => 'users', force_delegation => true);
    -- The other functions (key functions, the helpers of the two above) on every node, including nodes added later.
    -- Functions created while Citus was there already are; those of a database that was one PostgreSQL first are not.
    FOR fn IN SELECT p.oid::regprocedure AS signature FROM pg_proc p
              WHERE p.pronamespace = current_schema()::regnamespace AND NOT EXISTS (
                  SELECT 1 FROM pg_catalog.pg_dist_object o WHERE o.classid = 'pg_proc'::regclass AND o.objid = p.oid) LOOP
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

void distribute_schema(pqxx::work& tx) {
    if (schema_distributed(tx)) return;
    tx.exec(k_distribute);
}

}  // namespace syncml::persistence
