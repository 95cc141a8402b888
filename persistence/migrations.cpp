#include "persistence/migrations.hpp"

#include <spdlog/spdlog.h>

#include <string>

#include "persistence/detail/connection_access.hpp"

namespace syncml::persistence {

namespace {

// Arbitrary but fixed: every process migrating this database takes the same lock.
constexpr long long k_migration_lock_key = 0x73796e636d6c;  // "syncml"

constexpr const char* k_create_version_table = R"sql(
CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
))sql";

constexpr const char* k_current_version = "SELECT coalesce(max(version), 0) FROM schema_migrations";

constexpr const char* k_version_table_exists = "SELECT to_regclass('schema_migrations') IS NOT NULL";

int read_version(pqxx::transaction_base& tx) {
    if (!tx.exec1(k_version_table_exists)[0].as<bool>()) return 0;
    return tx.exec1(k_current_version)[0].as<int>();
}

}  // namespace

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
        tx.exec(k_create_version_table);
        const int from = tx.exec1(k_current_version)[0].as<int>();
        const int latest = latest_schema_version();
        if (from > latest) {
            throw db_error("database schema version " + std::to_string(from) + " is newer than this binary knows (" +
                               std::to_string(latest) + ")",
                           false);
        }
        for (const auto& step : embedded_migrations()) {
            if (step.version <= from) continue;
            spdlog::info("applying migration {:04}_{}", step.version, step.name);
            try {
                tx.exec(std::string(step.sql));
            } catch (const pqxx::sql_error& error) {
                throw db_error(fmt::format("migration {:04}_{} failed: {}", step.version, step.name, error.what()),
                               false, error.sqlstate());
            }
            tx.exec_params("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", step.version,
                           std::string(step.name));
        }
        return migration_outcome{from, latest};
    });
}

}  // namespace syncml::persistence
