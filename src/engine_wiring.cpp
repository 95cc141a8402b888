#include "src/engine_wiring.hpp"

#include "session/engine_metrics.hpp"
#include "session/sync_service.hpp"
#include "src/secret_key_setup.hpp"

namespace syncml::server {

namespace {

std::chrono::seconds whole_seconds(std::chrono::milliseconds value) {
    return std::chrono::duration_cast<std::chrono::seconds>(value);
}

}  // namespace

std::unique_ptr<session::sync_handler> make_sync_handler(const server_config& config, prometheus::Registry& registry,
                                                         spdlog::logger&) {
    // Lives as long as the process: the registry keeps referring to its families.
    static session::engine_metrics metrics(registry);
    session::service_settings settings;
    settings.auth_throttle.max_failures = static_cast<int>(config.engine.auth_max_failures);
    settings.auth_throttle.window = whole_seconds(config.engine.auth_failure_window);
    settings.auth_throttle.md5_key = configured_secret_key(config.database);
    settings.credential_cache_ttl = whole_seconds(config.engine.credential_cache_ttl);
    settings.tenant_cache_ttl = whole_seconds(config.engine.tenant_cache_ttl);
    settings.session_address_idle = whole_seconds(config.engine.session_address_idle);
    settings.session_max_age = whole_seconds(config.engine.session_max_age);
    return std::make_unique<session::sync_service>(settings, &metrics);
}

}  // namespace syncml::server
