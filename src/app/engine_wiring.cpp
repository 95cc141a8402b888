#include "src/app/engine_wiring.hpp"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <thread>

#include "common/log/log_event.hpp"

#include "common/text/trim.hpp"
#include "persistence/pg/database.hpp"
#include "session/engine/engine_metrics.hpp"
#include "session/service/sync_service.hpp"
#include "src/app/secret_key_setup.hpp"

namespace syncml::server {

namespace {

std::chrono::seconds whole_seconds(std::chrono::milliseconds value) {
    return std::chrono::duration_cast<std::chrono::seconds>(value);
}

session::trace_settings trace_settings_of(const server_config& config) {
    session::trace_settings trace;
    std::stringstream devices(config.engine.trace_devices);
    for (std::string device; std::getline(devices, device, ',');) {
        const auto name = common::trim(device, common::k_blanks);
        if (!name.empty()) trace.devices.insert(std::string(name));
    }
    trace.dir = config.engine.trace_dir.empty() ? std::filesystem::path(config.database.data_dir) / "trace"
                                                : std::filesystem::path(config.engine.trace_dir);
    trace.until = std::chrono::system_clock::now() + config.engine.trace_for;
    return trace;
}

persistence::throttle_settings throttle_settings_of(const server_config& config) {
    persistence::throttle_settings throttle;
    throttle.max_failures = static_cast<int>(config.engine.auth_max_failures);
    throttle.window = whole_seconds(config.engine.auth_failure_window);
    throttle.md5_key = configured_secret_key(config.database);
    return throttle;
}

}  // namespace

dav_settings dav_settings_of(const server_config& config, auth::login_guard& guard) {
    dav_settings settings;
    settings.throttle = throttle_settings_of(config);
    settings.credential_cache_ttl = whole_seconds(config.engine.credential_cache_ttl);
    settings.guard = &guard;
    settings.max_collections = config.engine.dav_max_collections;
    return settings;
}

auth::login_guard_settings login_guard_settings_of(const server_config& config) {
    auth::login_guard_settings settings;
    settings.budget.per_second = config.engine.client_logins_per_minute / 60.0;
    settings.budget.burst = config.engine.client_login_burst;
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned at_once =
        config.engine.password_checks_at_once != 0 ? config.engine.password_checks_at_once : std::max(1u, cores / 2);
    settings.hashes.concurrent = static_cast<int>(at_once);
    // Logins wait for a slot while a worker thread stays free for requests that need no hash (a RespURI token, a
    // remembered password); beyond that they get 503 at once instead of holding a worker.
    const unsigned workers = config.pool.worker_threads;
    settings.hashes.waiting = static_cast<int>(std::max(1u, workers > at_once + 1 ? workers - at_once - 1 : 0u));
    return settings;
}

std::unique_ptr<session::sync_handler> make_sync_handler(const server_config& config, session::engine_metrics& metrics,
                                                         auth::login_guard& guard, spdlog::logger& log,
                                                         std::shared_ptr<const persistence::database_profile> profile,
                                                         session::activity_sink* activity) {
    session::service_settings settings;
    settings.activity = activity;
    settings.guard = &guard;
    settings.auth_throttle = throttle_settings_of(config);
    settings.credential_cache_ttl = whole_seconds(config.engine.credential_cache_ttl);
    settings.tenant_cache_ttl = whole_seconds(config.engine.tenant_cache_ttl);
    settings.session_address_idle = whole_seconds(config.engine.session_address_idle);
    settings.session_max_age = whole_seconds(config.engine.session_max_age);
    settings.trace = trace_settings_of(config);
    // The readiness check reads the topology from the schema, at start or once the database is first reachable.
    settings.distributed_schema = [profile] { return profile->distributed_schema(); };
    if (!settings.trace.devices.empty()) {
        common::log_event(
            log, spdlog::level::warn, "tracing device messages to files",
            {{"devices", config.engine.trace_devices},
             {"dir", settings.trace.dir.string()},
             {"minutes", std::chrono::duration_cast<std::chrono::minutes>(config.engine.trace_for).count()}});
    }
    return std::make_unique<session::sync_service>(settings, &metrics);
}

}  // namespace syncml::server
