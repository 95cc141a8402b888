#include "src/app/secret_key_setup.hpp"

#include "common/log/log_event.hpp"
#include "persistence/accounts/credential_store.hpp"
#include "persistence/pg/database.hpp"
#include "persistence/pg/errors.hpp"

namespace syncml::server {

std::optional<persistence::secret_key> configured_secret_key(const database_config& config) {
    if (config.secret_key.empty() && config.secret_key_file.empty() && !config.url.empty()) return std::nullopt;
    return persistence::resolve_secret_key(config.secret_key, config.secret_key_file, config.data_dir);
}

std::optional<persistence::secret_key> prepare_secret_key(const database_config& config, persistence::database& db,
                                                          spdlog::logger& log) {
    auto key = configured_secret_key(config);
    const auto done = persistence::prepare_secret_key(db, key ? &*key : nullptr);
    if (done.sealed > 0 || done.dropped > 0 || done.resealed > 0) {
        common::log_event(log, spdlog::level::info, "md5 secrets",
                          {{"sealed_from_plaintext", done.sealed},
                           {"dropped_for_tenants_without_md5", done.dropped},
                           {"moved_to_configured_key", done.resealed}});
    }
    if (!key) log.info("md5 secrets sealed with the database's own key: set secret_key to keep the key out of it");
    return key;
}

void prepare_secret_key_at_start(const database_config& config, const std::string& url,
                                 std::shared_ptr<persistence::database_profile> profile, spdlog::logger& log) {
    persistence::database db(url, std::move(profile));
    if (!db.ensure_connected()) {
        log.warn("secret key not checked against the database: it is unreachable at start-up");
        return;
    }
    try {
        prepare_secret_key(config, db, log);
    } catch (const persistence::db_error& error) {
        common::log_event(log, spdlog::level::warn, "secret key not checked against the database",
                          {{"error", error.what()}});
    }
}

}  // namespace syncml::server
