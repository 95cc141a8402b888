#pragma once
// Shared by the two front-end translation units (listeners and connections); includes Asio/Beast.

#include <memory>
#include <optional>

#include "src/connection_registry.hpp"
#include "src/http_server.hpp"
#include "src/net/net.hpp"
#include "src/routing.hpp"

namespace syncml::server {

struct front_end_state {
    front_end_state(const server_config& config_, http_services services_) : config(config_), services(services_) {}
    const server_config& config;
    http_services services;
    connection_registry connections;
    std::optional<ssl::context> tls;  // set when the SyncML listener speaks HTTPS
};

// Serves one accepted connection on the socket's executor until it closes.
void spawn_connection(tcp::socket socket, std::shared_ptr<front_end_state> state, listener_kind listener);

}  // namespace syncml::server
