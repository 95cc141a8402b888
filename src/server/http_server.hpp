#pragma once
// The HTTP front end: the SyncML listener (optionally TLS), the metrics listener and, when configured, the admin API
// listener, served by N io threads.
// Free of Asio (pimpl) so that only the two front-end translation units pay for Beast.

#include <cstdint>
#include <memory>

#include <prometheus/registry.h>
#include <spdlog/logger.h>

#include "src/admin/api/admin_api.hpp"
#include "src/config/config.hpp"
#include "src/frontends/dav_service.hpp"
#include "src/frontends/sync_dispatch.hpp"
#include "src/server/readiness.hpp"
#include "src/telemetry/metrics.hpp"

namespace syncml::server {

struct http_services {
    sync_dispatcher& dispatcher;
    const readiness_source& readiness;
    server_metrics& metrics;
    const prometheus::Registry& registry;
    spdlog::logger& log;
    admin_dispatcher* admin = nullptr;  // serves the admin listener; config.admin.listen needs it
    dav_dispatcher* dav = nullptr;      // serves /dav/ on the sync listener (404 without)
    // Refuses a SyncML or DAV request before it is queued while its client address is over its budget of password
    // checks and failed session lookups (auth/login_guard.hpp); null: no such refusal.
    auth::login_guard* guard = nullptr;
};

class http_server {
  public:
    http_server(const server_config& config, http_services services);
    ~http_server();
    http_server(const http_server&) = delete;
    http_server& operator=(const http_server&) = delete;

    // Binds both listeners (and loads the TLS certificate); throws std::runtime_error naming what failed.
    void start();
    // Serves until stop() or, with handle_signals, SIGTERM/SIGINT (SIGHUP reloads the TLS certificate); then
    // stops accepting, lets in-flight requests finish up to the shutdown deadline and returns.
    void run(bool handle_signals);
    // Thread-safe; run() returns once drained.
    void stop();
    // Loads tls_cert/tls_key again (what SIGHUP does). New connections use the new certificate, open ones keep
    // theirs. False, with the error logged and the current certificate kept, when the files do not load or
    // TLS is off. Thread-safe.
    bool reload_tls();

    // Bound ports (useful when the config asked for port 0).
    std::uint16_t sync_port() const;
    std::uint16_t metrics_port() const;
    std::uint16_t admin_port() const;  // 0 when the admin API is off

    struct impl;

  private:
    std::unique_ptr<impl> impl_;
};

}  // namespace syncml::server
