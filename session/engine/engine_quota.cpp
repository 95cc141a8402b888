#include "session/engine/engine_quota.hpp"

#include <spdlog/spdlog.h>

#include <utility>

#include "common/log/log_event.hpp"
#include "session/engine/engine_metrics.hpp"

namespace syncml::session::detail {

bool take_item_slot(run& r, store_state& s, std::int64_t unflushed) {
    const std::int64_t limit = r.ctx.max_items_per_datastore;
    if (limit <= 0) return true;
    // Every item took a modseq when it was added, so the modseq bounds the live items from above.
    if (!s.per_message.live_items)
        s.per_message.live_items = r.store.current_modseq(r.tenant(), s.datastore_id) + unflushed;
    if (*s.per_message.live_items >= limit && !s.per_message.live_items_exact) {
        s.per_message.live_items = r.store.live_items(r.tenant(), s.datastore_id, limit) + unflushed;
        s.per_message.live_items_exact = true;
    }
    if (*s.per_message.live_items >= limit) {
        if (r.ctx.metrics) r.ctx.metrics->limit_refused(engine_metrics::limit::items_per_datastore);
        common::log_event(spdlog::level::info, "sync: datastore full",
                          {{"user", r.st.user_name},
                           {"device", r.in.header.source.loc_uri},
                           {"datastore", s.server_uri},
                           {"limit", limit}});
        return false;
    }
    ++*s.per_message.live_items;
    return true;
}

void give_back_item_slot(store_state& s) {
    if (s.per_message.live_items > 0) --*s.per_message.live_items;
}

bool take_user_bytes(run& r, const store_state& s, persistence::item_growth growth) {
    const std::int64_t limit = r.ctx.max_user_bytes;
    if (persistence::quota_applies(limit, growth)) {
        if (!r.user_bytes) r.user_bytes = r.store.user_stored_bytes(r.tenant());
        if (!persistence::quota_allows(limit, *r.user_bytes, growth)) {
            if (r.ctx.metrics) r.ctx.metrics->limit_refused(engine_metrics::limit::user_bytes);
            if (std::exchange(r.user_bytes_refusal_logged, true)) return false;
            common::log_event(spdlog::level::info, "sync: user storage full",
                              {{"user", r.st.user_name},
                               {"device", r.in.header.source.loc_uri},
                               {"datastore", s.server_uri},
                               {"stored", *r.user_bytes},
                               {"growth", growth.after - growth.before},
                               {"limit", limit}});
            return false;
        }
    }
    if (r.user_bytes) *r.user_bytes += growth.after - growth.before;
    return true;
}

void give_back_user_bytes(run& r, std::int64_t bytes) {
    if (r.user_bytes) *r.user_bytes -= bytes;
}

}  // namespace syncml::session::detail
