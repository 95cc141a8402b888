#include "src/engine_wiring.hpp"

namespace syncml::server {
namespace {

// Answers every sync request until the protocol engine (issue 4) is wired in, so clients and operators see
// a clear reason instead of a hang or a misleading SyncML status.
class engine_unavailable : public session::sync_handler {
  public:
    session::sync_response handle(const session::sync_request&, persistence::database&) override {
        session::sync_response response;
        response.http_status = 501;
        response.content_type = "text/plain; charset=utf-8";
        response.body = "the SyncML protocol engine is not available in this build\n";
        return response;
    }
};

}  // namespace

std::unique_ptr<session::sync_handler> make_sync_handler(const server_config&, prometheus::Registry&,
                                                         spdlog::logger& log) {
    log.warn("protocol engine not available: sync requests are answered with 501");
    return std::make_unique<engine_unavailable>();
}

}  // namespace syncml::server
