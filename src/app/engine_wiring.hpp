#pragma once
// The one place where the front end gets its protocol engine. The session/ module plugs in here; main passes
// the shared Prometheus registry so the engine can register its own metric families.

#include <memory>

#include <prometheus/registry.h>
#include <spdlog/logger.h>

#include "session/service/sync_handler.hpp"
#include "src/config/config.hpp"
#include "src/frontends/dav_service.hpp"

namespace syncml::persistence {
class database_profile;
}

namespace syncml::server {

// `profile`: the database topology the process's connections share (readiness updates it once the schema is known).
std::unique_ptr<session::sync_handler> make_sync_handler(const server_config& config, prometheus::Registry& registry,
                                                         spdlog::logger& log,
                                                         std::shared_ptr<const persistence::database_profile> profile);

// The DAV front end authenticates as the sync engine does: the same throttle, key and credential cache lifetime.
dav_settings dav_settings_of(const server_config& config);

}  // namespace syncml::server
