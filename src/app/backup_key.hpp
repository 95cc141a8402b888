#pragma once
// The secret key's part of backup and restore (issue 39). The md5 secrets in the database are sealed with a key kept
// outside it (persistence/accounts/secret_key.hpp), so a dump alone cannot bring back a server whose machine was
// lost: `backup` writes the key beside the dump (<dump>.key, mode 0600, the key file's own format), and `restore`
// puts it where this configuration keeps its key, refuses to replace another key without --replace-key, and after
// the restore says exactly what is missing when the server would not start with the key it has.

#include <optional>
#include <string>
#include <vector>

#include "persistence/accounts/credential_store.hpp"
#include "persistence/accounts/secret_key.hpp"
#include "src/config/config.hpp"

namespace syncml::server {

// backup --out FILE [--no-key] | restore FILE [--key KEYFILE] [--replace-key]
struct backup_words {
    std::string out;
    bool save_key = true;
    std::string error;  // usage error
};
backup_words parse_backup_words(const std::vector<std::string>& words);

struct restore_words {
    std::string in;
    std::string key_file;  // empty: <in>.key when it exists
    bool replace_key = false;
    std::string error;  // usage error
};
restore_words parse_restore_words(const std::vector<std::string>& words);

// Where this configuration keeps the md5 key (the rules of secret_key_setup.hpp).
struct key_location {
    enum class kind { text, file, database };  // SYNCML_SECRET_KEY, a key file, the database's own key
    kind where = kind::database;
    std::string path;  // the key file, for kind::file
};
key_location locate_secret_key(const database_config& config);

// The configured key as it is, read without creating one: nullopt for the database's own key (it is in the dump)
// and for a key file that does not exist yet (no command has sealed anything with it). Throws std::runtime_error
// for an unreadable or malformed key.
std::optional<persistence::secret_key> existing_secret_key(const database_config& config);

// The key file backup writes beside a dump.
std::string backup_key_path(const std::string& dump);

// What restore does with the backup's key, decided before the database is touched.
struct key_restore_plan {
    enum class step { none, keep, create, replace };
    step action = step::none;
    key_location location;
    // The key a server would start with after the restore (nullopt: the database's own, or a new key file).
    std::optional<persistence::secret_key> key;
    std::optional<persistence::secret_key> backup_key;
    std::string backup_key_file;  // where backup_key came from
    std::string error;            // when not empty: refused, why and what to do; nothing may be changed
};
key_restore_plan plan_key_restore(const database_config& config,
                                  const std::optional<persistence::secret_key>& backup_key,
                                  const std::string& backup_key_file, bool replace);

// Carries out the plan once the database is restored: creates or replaces the key file (the replaced one is kept
// as <path>.replaced-<UTC time>). Returns the line for the operator; throws std::runtime_error.
std::string apply_key_restore(const key_restore_plan& plan);

// After the restore: empty when a server would start with the plan's key; else what is missing and where it goes.
std::string missing_key(const persistence::secret_key_record& record, const key_restore_plan& plan);

}  // namespace syncml::server
