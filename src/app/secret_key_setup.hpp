#pragma once
// The server key of the stored md5 secrets (persistence/accounts/secret_key.hpp, credential_store.hpp) as serve and
// admin get it from the configuration.

#include <spdlog/logger.h>

#include <memory>
#include <optional>
#include <string>

#include "persistence/accounts/secret_key.hpp"
#include "src/config/config.hpp"

namespace syncml::persistence {
class database;
class database_profile;
}  // namespace syncml::persistence

namespace syncml::server {

// secret_key, else secret_key_file, else with the embedded database <data_dir>/secret.key (created 0600 when
// missing); nullopt with an external database and neither set: the database's own key then serves, which every
// instance finds without configuration. Throws std::runtime_error for a malformed key or an unusable file.
std::optional<persistence::secret_key> configured_secret_key(const database_config& config);

// configured_secret_key, checked against the database and used to seal the plaintext md5 secrets an older
// schema left (persistence::prepare_secret_key). Throws std::runtime_error when the database's md5 secrets were
// sealed with another key, persistence::db_error when the database fails.
std::optional<persistence::secret_key> prepare_secret_key(const database_config& config, persistence::database& db,
                                                          spdlog::logger& log);

// serve: prepare_secret_key on a connection of its own. A database that is down or fails at start-up only
// postpones the check and the sealing to the next start (plaintext secrets left by the older schema keep
// serving md5 logins until then); a key that differs from the database's stops the server.
void prepare_secret_key_at_start(const database_config& config, const std::string& url,
                                 std::shared_ptr<persistence::database_profile> profile, spdlog::logger& log);

}  // namespace syncml::server
