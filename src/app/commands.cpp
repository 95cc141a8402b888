#include "src/app/commands.hpp"

#include <iostream>
#include <stdexcept>

#include "common/log/log_event.hpp"
#include "persistence/accounts/admin_audit.hpp"
#include "persistence/pg/database.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/pg/migrations.hpp"
#include "src/admin/cli/admin_command.hpp"
#include "src/admin/cli/admin_token_command.hpp"
#include "src/app/database_target.hpp"
#include "src/app/secret_key_setup.hpp"

namespace syncml::server {
namespace {

void connect(persistence::database& db, const database_target& target) {
    if (!db.ensure_connected()) throw std::runtime_error("cannot connect to " + target.description());
}

// Connects for an admin command; false (after telling why) when the schema is not one this binary may work on.
// Schema changes are `migrate`'s (or serve's at start-up) to make, at a time the operator chose. A schema newer by
// backward-compatible migrations only is one this binary can still work on (a rollout).
bool open_admin_database(persistence::database& db, const database_target& target) {
    connect(db, target);
    const auto schema = persistence::read_schema_status(db);
    db.profile().use_distributed_schema(schema.distributed);
    if (schema.usable()) return true;
    std::cerr << "syncml-server: the database schema is at version " << schema.current << ", this version needs "
              << schema.latest
              << (schema.behind() ? ": run 'syncml-server migrate' first\n"
                                  : ": this binary is older than the database\n");
    return false;
}

int run_token_words(const server_config& config, const std::vector<std::string>& words, spdlog::logger& log) {
    const auto parsed = parse_token_command(words);
    if (!parsed.error.empty()) {
        std::cerr << "syncml-server: " << parsed.error << "\n";
        return 2;
    }
    database_target target(config.database, process_role::command, log);
    persistence::database db(target.url(), target.profile());
    if (!open_admin_database(db, target)) return 1;
    return run_token_command(parsed.request, db, std::cout, std::cerr);
}

// A change made from the command line goes to the audit log like one made through the API; a log that cannot be
// written does not undo the change, so it only warns.
void audit_cli_command(persistence::database& db, const admin_request& request, int status, spdlog::logger& log) {
    const auto entry = cli_audit_entry(request, status);
    if (!entry) return;
    try {
        persistence::record_audit(db, *entry);
    } catch (const persistence::db_error& e) {
        common::log_event(log, spdlog::level::warn, "audit log not written",
                          {{"action", entry->action}, {"error", e.what()}});
    }
}

}  // namespace

int run_migrate(const server_config& config, bool distributed, spdlog::logger& log) {
    database_target target(config.database, process_role::command, log);
    persistence::database db(target.url(), target.profile());
    connect(db, target);
    if (distributed) {
        try {
            persistence::create_citus_extension(db);
        } catch (const persistence::db_error& error) {
            std::cerr << "syncml-server: migrate --distributed: the database cannot have the citus extension: "
                      << error.what() << "\n";
            return 1;
        }
    }
    const auto outcome = persistence::apply_migrations(db);
    if (outcome.distributed) std::cout << "schema distributed over the Citus nodes (persistence/DISTRIBUTED.md)\n";
    if (outcome.to > persistence::latest_schema_version()) {
        std::cout << "schema at version " << outcome.to << ", newer than this binary ("
                  << persistence::latest_schema_version() << "); every newer migration is backward compatible\n";
    } else if (outcome.from == outcome.to) {
        std::cout << "schema up to date at version " << outcome.to << "\n";
    } else {
        std::cout << "schema migrated from version " << outcome.from << " to " << outcome.to << "\n";
    }
    return 0;
}

int run_admin_command(const server_config& config, const std::vector<std::string>& words, spdlog::logger& log) {
    if (is_token_command(words)) return run_token_words(config, words, log);
    auto parsed = parse_admin(words);
    if (!parsed.error.empty()) {
        std::cerr << "syncml-server: " << parsed.error << "\n";
        return 2;
    }
    // Before connecting: a missing password is the typist's mistake, not worth starting a database for.
    if (const auto error = read_password(parsed.request, std::cin); !error.empty()) {
        std::cerr << "syncml-server: " << error << "\n";
        return 2;
    }
    database_target target(config.database, process_role::command, log);
    persistence::database db(target.url(), target.profile());
    if (!open_admin_database(db, target)) return 1;
    const auto md5_key = prepare_secret_key(config.database, db, log);
    const int status = run_admin(parsed.request, db, std::cout, std::cerr, md5_key ? &*md5_key : nullptr);
    audit_cli_command(db, parsed.request, status, log);
    return status;
}

}  // namespace syncml::server
