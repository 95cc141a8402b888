#include "src/engine_wiring.hpp"

#include "session/engine_metrics.hpp"
#include "session/sync_service.hpp"

namespace syncml::server {

std::unique_ptr<session::sync_handler> make_sync_handler(const server_config&, prometheus::Registry& registry,
                                                         spdlog::logger&) {
    // Lives as long as the process: the registry keeps referring to its families.
    static session::engine_metrics metrics(registry);
    return std::make_unique<session::sync_service>(session::service_settings{}, &metrics);
}

}  // namespace syncml::server
