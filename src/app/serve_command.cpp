#include <chrono>

#include <prometheus/registry.h>

#include "auth/login_guard.hpp"
#include "common/log/log_event.hpp"
#include "persistence/pg/worker_pool.hpp"
#include "session/engine/engine_metrics.hpp"
#include "src/app/commands.hpp"
#include "src/app/database_target.hpp"
#include "src/app/engine_wiring.hpp"
#include "src/app/janitor_runner.hpp"
#include "src/app/push_runner.hpp"
#include "src/app/secret_key_setup.hpp"
#include "src/config/listener_exposure.hpp"
#include "src/frontends/dav_service.hpp"
#include "src/frontends/sync_activity.hpp"
#include "src/frontends/sync_dispatch.hpp"
#include "src/server/http_server.hpp"
#include "src/server/readiness.hpp"
#include "src/telemetry/build_info.hpp"
#include "src/telemetry/metrics.hpp"

namespace syncml::server {

namespace {

// The line operators wait for: where the server listens, and how long it took to get there.
void log_listening(const server_config& config, spdlog::logger& log, std::chrono::steady_clock::time_point started) {
    const auto startup = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started);
    common::log_event(
        log, spdlog::level::info, "listening",
        {{"sync", (config.http.tls_enabled() ? "https://" : "http://") + format_endpoint(config.http.listen)},
         {"metrics", format_endpoint(config.metrics.listen)},
         {"admin", config.admin.listen ? format_endpoint(*config.admin.listen) : "off"},
         {"io_threads", config.http.io_threads},
         {"workers", config.pool.worker_threads},
         {"startup_ms", startup.count(), 0}});
    if (plain_http_exposed(config.http)) {
        common::log_event(log, spdlog::level::warn,
                          "plain HTTP on a public address and no trusted proxy: passwords and contacts cross the "
                          "network unencrypted; set tls_cert and tls_key, or put a TLS proxy in front and name it in "
                          "trusted_proxies",
                          {{"listen", format_endpoint(config.http.listen)}});
    }
}

}  // namespace

int run_serve(const server_config& config, spdlog::logger& log) {
    const auto started = std::chrono::steady_clock::now();
    database_target target(config.database, process_role::server, log);
    log.info("database {}", target.description());

    prometheus::Registry registry;
    server_metrics metrics(registry, build_version(), build_revision());
    readiness_checker readiness(target.url(), log, true, target.profile());
    readiness.check_now();  // applies pending migrations before the first request
    prepare_secret_key_at_start(config.database, target.url(), target.profile(), log);
    session::engine_metrics engine_metrics(registry);
    // One guard for both front ends and the HTTP layer: a client's address has one budget wherever it logs in.
    auth::login_guard guard(login_guard_settings_of(config));
    // What the admin page shows of this instance's SyncML traffic (src/frontends/sync_activity.hpp).
    sync_activity activity;
    auto handler = make_sync_handler(config, engine_metrics, guard, log, target.profile(), &activity);
    persistence::worker_pool pool({target.urls(), config.pool.worker_threads, config.pool.queue_limit}, &metrics,
                                  target.profile());
    pool_dispatcher dispatcher(pool, *handler, metrics, log, &engine_metrics);
    // Admin requests share the worker pool with sync requests; the API is small and its queue is the same bound.
    std::optional<admin_api> admin;
    if (config.admin.listen) {
        const auto started_at =
            std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
                .count();
        admin.emplace(pool, registry, log, configured_secret_key(config.database),
                      admin_instance{.version = SYNCML_VERSION,
                                     .started_at = started_at,
                                     .ready = [&readiness](std::string& reason) { return readiness.ready(reason); },
                                     .activity = &activity});
    }
    dav_service dav(pool, dispatcher.shares(), dav_settings_of(config, guard), registry, log);
    http_server server(config,
                       {dispatcher, readiness, metrics, registry, log, admin ? &*admin : nullptr, &dav, &guard});
    // Before the janitor, whose thread publishes to it: destroyed after the thread stopped.
    tenant_metrics tenants(registry, config.metrics.tenants_top);
    janitor_runner janitor(target.url(), config.engine.janitor_interval, registry, log, target.profile());
    janitor.publish_tenant_figures(tenants, config.metrics.tenant_interval,
                                   std::chrono::duration_cast<std::chrono::seconds>(config.engine.session_max_age));
    // Without a public URL, notifications name the server by its listener (push_server_id says better).
    const auto public_url = !config.http.public_url.empty() ? config.http.public_url
                                                            : (config.http.tls_enabled() ? "https://" : "http://") +
                                                                  format_endpoint(config.http.listen);
    push_runner push(target.url(), config.push, public_url, registry, log, target.profile());
    server.start();
    readiness.start();
    janitor.start();
    push.start();
    log_listening(config, log, started);

    server.run(true);
    // In-flight jobs finish before the pool stops; only then may PostgreSQL go away.
    pool.stop();
    push.stop();
    janitor.stop();
    readiness.stop();
    target.stop();
    log.info("stopped");
    return 0;
}

}  // namespace syncml::server
