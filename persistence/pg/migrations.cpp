#include "persistence/pg/migrations.hpp"

#include <spdlog/spdlog.h>

#include <string>

#include "common/text/trim.hpp"
#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/detail/distributed_schema.hpp"

namespace syncml::persistence {

namespace {

// Arbitrary but fixed: every process migrating this database takes the same lock.
constexpr long long k_migration_lock_key = 0x73796e636d6c;  // "syncml"

constexpr const char* k_create_version_table = R"sql(
CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    backward_compatible boolean NOT NULL DEFAULT false
))sql";

// Version tables created before the column existed. Only run when it is missing: ALTER TABLE takes an exclusive
// lock that would stall other instances' readiness checks for the whole migration transaction.
constexpr const char* k_has_compatibility_column =
    "SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('schema_migrations') "
    "AND attname = 'backward_compatible' AND NOT attisdropped)";
constexpr const char* k_add_compatibility_column =
    "ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS backward_compatible boolean NOT NULL DEFAULT false";

constexpr const char* k_first_incompatible_above =
    "SELECT coalesce(min(version), 0) FROM schema_migrations WHERE version > $1 AND NOT backward_compatible";

constexpr const char* k_record_migration =
    "INSERT INTO schema_migrations (version, name, backward_compatible) VALUES ($1, $2, $3)";

constexpr std::string_view k_compatibility_key = "backward-compatible:";

constexpr const char* k_current_version = "SELECT coalesce(max(version), 0) FROM schema_migrations";

constexpr const char* k_version_table_exists = "SELECT to_regclass('schema_migrations') IS NOT NULL";

int read_version(pqxx::transaction_base& tx) {
    if (!tx.exec1(k_version_table_exists)[0].as<bool>()) return 0;
    return tx.exec1(k_current_version)[0].as<int>();
}

// The schema's relation to this binary inside a transaction that has read `current`.
schema_status status_in(pqxx::transaction_base& tx, int current) {
    schema_status status{.current = current, .latest = latest_schema_version()};
    if (status.current <= status.latest) return status;
    // A version table without the column was last migrated by a binary that recorded nothing: not compatible.
    if (!tx.exec1(k_has_compatibility_column)[0].as<bool>()) {
        status.first_incompatible = status.latest + 1;
        return status;
    }
    status.first_incompatible = tx.exec_params1(k_first_incompatible_above, status.latest)[0].as<int>();
    return status;
}

// The numbered migrations above `from`, each recorded with its declared compatibility.
void apply_numbered(pqxx::work& tx, int from) {
    for (const auto& step : embedded_migrations()) {
        if (step.version <= from) continue;
        spdlog::info("applying migration {:04}_{}", step.version, step.name);
        try {
            tx.exec(std::string(step.sql));
        } catch (const pqxx::sql_error& error) {
            throw db_error(fmt::format("migration {:04}_{} failed: {}", step.version, step.name, error.what()), false,
                           error.sqlstate());
        }
        const bool compatible = declared_compatibility(step.sql) == migration_compatibility::backward_compatible;
        tx.exec_params(k_record_migration, step.version, std::string(step.name), compatible);
    }
}

// Only right after this binary's migrations: a schema another binary migrated keeps that binary's definitions,
// which a binary of the same version shares and an older one must not replace (migrations/README.md).
void apply_functions(pqxx::work& tx) {
    for (const auto& function : embedded_functions()) {
        try {
            tx.exec(std::string(function.sql));
        } catch (const pqxx::sql_error& error) {
            throw db_error(fmt::format("function {} failed: {}", function.name, error.what()), false, error.sqlstate());
        }
    }
}

}  // namespace

migration_compatibility declared_compatibility(std::string_view sql) {
    while (!sql.empty()) {
        const auto end = sql.find('\n');
        const std::string_view line = common::trim(sql.substr(0, end), common::k_blanks_and_cr);
        sql = end == std::string_view::npos ? std::string_view() : sql.substr(end + 1);
        if (line.empty()) continue;
        if (!line.starts_with("--")) break;  // the declaration belongs to the header comment only
        const std::string_view comment = common::trim(line.substr(2), common::k_blanks_and_cr);
        if (!comment.starts_with(k_compatibility_key)) continue;
        const std::string_view value =
            common::trim(comment.substr(k_compatibility_key.size()), common::k_blanks_and_cr);
        if (value == "yes") return migration_compatibility::backward_compatible;
        if (value == "no") return migration_compatibility::breaking;
        return migration_compatibility::invalid;
    }
    return migration_compatibility::undeclared;
}

schema_status read_schema_status(database& db) {
    return in_transaction(db, [](pqxx::work& tx) {
        auto status = status_in(tx, read_version(tx));
        status.distributed = schema_distributed(tx);
        return status;
    });
}

int latest_schema_version() {
    const auto& all = embedded_migrations();
    return all.empty() ? 0 : all.back().version;
}

int current_schema_version(database& db) {
    return in_transaction(db, [](pqxx::work& tx) { return read_version(tx); });
}

migration_outcome apply_migrations(database& db) {
    return in_transaction(db, [](pqxx::work& tx) {
        tx.exec_params("SELECT pg_advisory_xact_lock($1)", k_migration_lock_key);
        // Quiet: CREATE ... IF NOT EXISTS notices would reach stderr through libpq otherwise.
        tx.exec("SET LOCAL client_min_messages = warning");
        // On Citus, DDL of distributed tables and writes of reference tables (schema_migrations) share this
        // transaction: one connection per node, not one per shard, or the second refuses to follow the first.
        const bool citus = citus_installed(tx);
        if (citus) tx.exec("SET LOCAL citus.multi_shard_modify_mode = 'sequential'");
        tx.exec(k_create_version_table);
        if (!tx.exec1(k_has_compatibility_column)[0].as<bool>()) tx.exec(k_add_compatibility_column);
        const int from = tx.exec1(k_current_version)[0].as<int>();
        const int latest = latest_schema_version();
        if (from > latest) {
            const auto status = status_in(tx, from);
            if (status.usable()) return migration_outcome{from, from};
            throw db_error(fmt::format("database schema version {} is newer than this binary knows ({}) and migration "
                                       "{} is not declared backward compatible",
                                       from, latest, status.first_incompatible),
                           false);
        }
        apply_numbered(tx, from);
        if (from < latest) apply_functions(tx);
        if (citus) distribute_schema(tx);
        return migration_outcome{from, latest, citus};
    });
}

}  // namespace syncml::persistence
