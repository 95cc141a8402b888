#include <sys/stat.h>

#include <iostream>
#include <stdexcept>

#include "common/files/operator_file.hpp"
#include "persistence/accounts/credential_store.hpp"
#include "persistence/maintenance/pg_tools.hpp"
#include "persistence/pg/database.hpp"
#include "persistence/pg/migrations.hpp"
#include "src/app/backup_key.hpp"
#include "src/app/commands.hpp"
#include "src/app/database_target.hpp"

namespace syncml::server {
namespace {

int usage_error(const std::string& message) {
    std::cerr << "syncml-server: " << message << "\n";
    return 2;
}

// backup: the key beside the dump, in the key file's own format, under the rules of operator files (a new 0600 file
// renamed into place).
void save_key(const database_config& config, const std::string& dump) {
    const auto location = locate_secret_key(config);
    if (location.where == key_location::kind::database) {
        std::cout << "the md5 secrets are sealed with the database's own key, which is in the backup\n";
        return;
    }
    const auto key = existing_secret_key(config);
    if (!key) {
        std::cout << "no secret key file at " << location.path << " yet: nothing is sealed with one\n";
        return;
    }
    const std::string path = backup_key_path(dump);
    common::write_output_file(path, key->to_base64() + "\n");
    std::cout << "secret key saved to " << path << " (fingerprint " << key->fingerprint()
              << ", mode 0600): restore needs it beside the backup; whoever has both can read the md5 secrets\n";
}

// restore: --key KEYFILE, else <dump>.key when there is one.
std::optional<persistence::secret_key> backup_key_of(const restore_words& words, std::string& file) {
    file = words.key_file.empty() ? backup_key_path(words.in) : words.key_file;
    struct stat info {};
    if (words.key_file.empty() && ::lstat(file.c_str(), &info) != 0) return std::nullopt;
    auto key = persistence::secret_key::parse(common::read_input_file(file));
    if (!key) throw std::runtime_error(file + ": does not hold a secret key (base64 of 32 bytes)");
    return key;
}

}  // namespace

int run_backup_command(const server_config& config, const std::vector<std::string>& words, spdlog::logger& log) {
    const auto parsed = parse_backup_words(words);
    if (!parsed.error.empty()) return usage_error(parsed.error);
    database_target target(config.database, process_role::command, log);
    persistence::dump_database(target.url(), parsed.out);
    std::cout << "database backed up to " << parsed.out << " (pg_dump custom format)\n";
    if (parsed.save_key) {
        save_key(config.database, parsed.out);
    } else {
        std::cout << "secret key not saved (--no-key): a restore on another machine needs it\n";
    }
    return 0;
}

int run_restore_command(const server_config& config, const std::vector<std::string>& words, spdlog::logger& log) {
    const auto parsed = parse_restore_words(words);
    if (!parsed.error.empty()) return usage_error(parsed.error);
    // The key first: a key that would conflict refuses the restore before anything changed.
    std::string key_file;
    const auto backup_key = backup_key_of(parsed, key_file);
    const auto plan = plan_key_restore(config.database, backup_key, key_file, parsed.replace_key);
    if (!plan.error.empty()) throw std::runtime_error(plan.error);
    database_target target(config.database, process_role::command, log);
    // Phones syncing while their data is replaced would see half of each; with an external database the operator
    // stops the servers (README).
    if (target.shared_with_server()) {
        throw std::runtime_error("a server is running on " + config.database.data_dir +
                                 "; stop it before restoring its database");
    }
    persistence::database db(target.url(), target.profile());
    if (!db.ensure_connected()) throw std::runtime_error("cannot connect to " + target.description());
    persistence::restore_database(target.url(), parsed.in);
    // A backup of an older version is brought up to this one's schema.
    const auto outcome = persistence::apply_migrations(db);
    std::cout << "database restored from " << parsed.in << " (schema version " << outcome.to << ")\n";
    if (const auto line = apply_key_restore(plan); !line.empty()) std::cout << line << "\n";
    if (const auto missing = missing_key(persistence::read_secret_key_record(db), plan); !missing.empty()) {
        std::cerr << "syncml-server: " << missing << "\n";
        return 1;
    }
    return 0;
}

}  // namespace syncml::server
