#pragma once
// Shared by the front-end translation units (listeners and connections); includes Asio/Beast.

#include <memory>

#include "src/http/routing.hpp"
#include "src/server/body_budget.hpp"
#include "src/server/connection_registry.hpp"
#include "src/server/http_server.hpp"
#include "src/server/http_tls.hpp"
#include "src/server/net.hpp"

namespace syncml::server {

struct front_end_state {
    front_end_state(const server_config& config_, http_services services_)
        : config(config_),
          services(services_),
          sync_connections(config_.http.max_connections, config_.http.max_connections_per_address),
          metrics_connections(config_.metrics.max_connections, config_.http.max_connections_per_address),
          admin_connections(config_.http.max_connections, config_.http.max_connections_per_address),
          bodies(config_.http.body_budget) {}
    connection_registry& connections(listener_kind kind) {
        return kind == listener_kind::sync      ? sync_connections
               : kind == listener_kind::metrics ? metrics_connections
                                                : admin_connections;
    }
    std::size_t open_connections() const {
        return sync_connections.size() + metrics_connections.size() + admin_connections.size();
    }

    const server_config& config;
    http_services services;
    connection_registry sync_connections;
    connection_registry metrics_connections;
    connection_registry admin_connections;
    body_budget bodies;                      // shared by every listener's requests
    std::unique_ptr<tls_context_store> tls;  // set when the SyncML listener speaks HTTPS
};

// Serves one accepted connection on the socket's executor until it closes.
void spawn_connection(tcp::socket socket, std::shared_ptr<front_end_state> state, listener_kind listener);

}  // namespace syncml::server
