#include "session/session_log.hpp"

#include <spdlog/spdlog.h>

namespace syncml::session {

void log_session_end(const std::string& tenant, const session_state& state, const std::string& device,
                     std::int64_t now_ms) {
    std::string modes;
    std::int64_t received = 0, sent = 0;
    for (const auto& s : state.stores) {
        if (!modes.empty()) modes += ',';
        modes += s.kind + ":" + std::to_string(s.mode);
        received += s.received_add + s.received_replace + s.received_delete;
        sent += s.sent_add + s.sent_replace + s.sent_delete;
    }
    spdlog::info(
        "session end tenant={} user={} device={} modes={} received={} sent={} bytes_in={} bytes_out={} "
        "duration_ms={}",
        persistence::log_value(tenant.empty() ? "default" : tenant), persistence::log_value(state.user_name),
        persistence::log_value(device), persistence::log_value(modes), received, sent, state.bytes_in, state.bytes_out,
        now_ms - state.started_unix_ms);
}

}  // namespace syncml::session
