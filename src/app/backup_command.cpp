#include <iostream>
#include <stdexcept>

#include "persistence/maintenance/pg_tools.hpp"
#include "persistence/pg/database.hpp"
#include "persistence/pg/migrations.hpp"
#include "src/app/commands.hpp"
#include "src/app/database_target.hpp"

namespace syncml::server {
namespace {

int usage_error(const std::string& message) {
    std::cerr << "syncml-server: " << message << "\n";
    return 2;
}

}  // namespace

int run_backup_command(const server_config& config, const std::vector<std::string>& words, spdlog::logger& log) {
    if (words.size() != 2 || words[0] != "--out" || words[1].empty()) return usage_error("usage: backup --out FILE");
    database_target target(config.database, process_role::command, log);
    persistence::dump_database(target.url(), words[1]);
    std::cout << "database backed up to " << words[1] << " (pg_dump custom format)\n";
    return 0;
}

int run_restore_command(const server_config& config, const std::vector<std::string>& words, spdlog::logger& log) {
    if (words.size() != 1 || words[0].empty() || words[0].starts_with("--")) return usage_error("usage: restore FILE");
    database_target target(config.database, process_role::command, log);
    // Phones syncing while their data is replaced would see half of each; with an external database the operator
    // stops the servers (README).
    if (target.shared_with_server()) {
        throw std::runtime_error("a server is running on " + config.database.data_dir +
                                 "; stop it before restoring its database");
    }
    persistence::database db(target.url(), target.profile());
    if (!db.ensure_connected()) throw std::runtime_error("cannot connect to " + target.description());
    persistence::restore_database(target.url(), words[0]);
    // A backup of an older version is brought up to this one's schema.
    const auto outcome = persistence::apply_migrations(db);
    std::cout << "database restored from " << words[0] << " (schema version " << outcome.to << ")\n";
    return 0;
}

}  // namespace syncml::server
