#pragma once
// Schema migrations: the numbered files migrations/NNNN_name.sql and the current function definitions
// migrations/functions/<name>.sql, embedded into the binary at build time. Forward-only. apply_migrations() takes a
// transaction-scoped advisory lock so that several processes starting at once apply every migration exactly once.

#include <string_view>
#include <vector>

namespace syncml::persistence {

class database;

struct migration {
    int version;
    std::string_view name;  // file name without the number and extension, e.g. "initial"
    std::string_view sql;
};

// Every embedded migration, ordered by version (1, 2, 3, ... without gaps).
const std::vector<migration>& embedded_migrations();
int latest_schema_version();

// The current definition of one of the schema's functions: migrations/functions/<name>.sql, a CREATE OR REPLACE
// FUNCTION statement (migrations/README.md).
struct function_definition {
    std::string_view name;
    std::string_view sql;
};

// Every embedded function definition, ordered by name.
const std::vector<function_definition>& embedded_functions();

// What a migration declares in its leading comment lines with `-- backward-compatible: yes` (the previous
// release's code keeps working on the migrated schema, so its instances stay ready during a rollout) or `no`.
// Undeclared and invalid declarations count as not compatible.
enum class migration_compatibility { undeclared, backward_compatible, breaking, invalid };
migration_compatibility declared_compatibility(std::string_view sql);

// The database's schema seen from this binary.
struct schema_status {
    int current = 0;  // highest applied version
    int latest = 0;   // this binary's newest migration
    // The lowest applied version above `latest` that was not declared backward compatible; 0 when none.
    int first_incompatible = 0;

    bool distributed = false;  // the tables are distributed over Citus nodes (persistence/DISTRIBUTED.md)

    bool behind() const { return current < latest; }
    // This binary can serve the schema: its own version, or newer by backward-compatible migrations only.
    bool usable() const { return current == latest || (current > latest && first_incompatible == 0); }
};

// Throws db_error.
schema_status read_schema_status(database& db);

struct migration_outcome {
    int from;
    int to;
    bool distributed = false;  // the database has the citus extension: the schema is distributed (distributed_schema)
};

// Applies the pending migrations in one transaction and records whether each is backward compatible; when it applied
// any, the function definitions (embedded_functions) follow in the same transaction, so the schema this binary
// migrated to its version has exactly this binary's functions. A schema newer than this binary is left alone
// (from == to == the database's version) when every newer migration was declared backward compatible. Throws db_error
// on failure (nothing applied), including when the database has a newer schema that is not.
migration_outcome apply_migrations(database& db);

// `migrate --distributed`: creates the citus extension when the database lacks it, so that apply_migrations()
// distributes the schema. Throws db_error with PostgreSQL's reason when the database cannot have it (citus missing
// from shared_preload_libraries or not installed, or a role that may not create it).
void create_citus_extension(database& db);

// Highest applied version, 0 for an empty database. Throws db_error.
int current_schema_version(database& db);

}  // namespace syncml::persistence
