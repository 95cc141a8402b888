#pragma once
// The one place where the front end gets its protocol engine. The session/ module plugs in here; serve passes the
// engine's metrics, registered on the shared Prometheus registry.

#include <memory>

#include <prometheus/registry.h>
#include <spdlog/logger.h>

#include "session/service/sync_handler.hpp"
#include "src/config/config.hpp"
#include "src/frontends/dav_service.hpp"

namespace syncml::persistence {
class database_profile;
}
namespace syncml::session {
class engine_metrics;
class activity_sink;
}  // namespace syncml::session

namespace syncml::server {

// `profile`: the database topology the process's connections share (readiness updates it once the schema is known).
// `metrics` (on the shared registry) outlives the handler.
// `activity` (null: none) is told what became of each message, for the admin page.
std::unique_ptr<session::sync_handler> make_sync_handler(const server_config& config, session::engine_metrics& metrics,
                                                         auth::login_guard& guard, spdlog::logger& log,
                                                         std::shared_ptr<const persistence::database_profile> profile,
                                                         session::activity_sink* activity = nullptr);

// The DAV front end authenticates as the sync engine does: the same throttle, key, credential cache lifetime and
// login guard.
dav_settings dav_settings_of(const server_config& config, auth::login_guard& guard);

// The budget of each client address and the password hashes at once, from the engine's settings.
auth::login_guard_settings login_guard_settings_of(const server_config& config);

}  // namespace syncml::server
