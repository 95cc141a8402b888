#pragma once
// Schema migrations: the numbered files migrations/NNNN_name.sql, embedded into the binary at build
// time. Forward-only. apply_migrations() takes a transaction-scoped advisory lock so that several
// processes starting at once apply every migration exactly once.

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

struct migration_outcome {
    int from;
    int to;
};

// Applies the pending migrations in one transaction. Throws db_error on failure (nothing applied),
// including when the database has a newer schema than this binary knows.
migration_outcome apply_migrations(database& db);

// Highest applied version, 0 for an empty database. Throws db_error.
int current_schema_version(database& db);

}  // namespace syncml::persistence
