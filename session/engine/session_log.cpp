#include "session/engine/session_log.hpp"

#include <spdlog/spdlog.h>

#include "common/log/log_event.hpp"
#include "matching/filter/filter_codec.hpp"
#include "matching/filter/filter_describe.hpp"
#include "matching/model/datastore_kind.hpp"

namespace syncml::session {

void log_session_end(const std::string& tenant, const session_state& state, const std::string& device,
                     std::int64_t now_ms) {
    std::string modes, filters;
    std::int64_t received = 0, sent = 0, filtered_out = 0, too_large = 0;
    for (const auto& s : state.stores) {
        if (!modes.empty()) modes += ',';
        modes += std::string(matching::datastore_name(s.kind)) + ":" + std::to_string(s.mode);
        if (!s.filter.empty()) {
            auto filter = matching::decode_filter(s.filter);
            if (!filters.empty()) filters += "; ";
            filters += std::string(matching::datastore_name(s.kind)) + ": " +
                       (filter ? matching::describe(*filter) : std::string("unreadable"));
        }
        filtered_out += s.filtered_out;
        too_large += s.too_large;
        received += s.counts.received_add + s.counts.received_replace + s.counts.received_delete;
        sent += s.counts.sent_add + s.counts.sent_replace + s.counts.sent_delete;
    }
    common::log_event(spdlog::level::info, "session end",
                      {{"tenant", tenant.empty() ? "default" : tenant},
                       {"user", state.user_name},
                       {"device", device},
                       {"modes", modes},
                       {"received", received},
                       {"sent", sent},
                       {"filters", filters.empty() ? std::string("none") : filters},
                       {"filtered_out", filtered_out},
                       {"too_large", too_large},
                       {"bytes_in", state.bytes_in},
                       {"bytes_out", state.bytes_out},
                       {"duration_ms", now_ms - state.started_unix_ms}});
}

}  // namespace syncml::session
