#include "session/service/distributed_sessions.hpp"

#include <spdlog/spdlog.h>

#include "common/log/log_event.hpp"
#include "persistence/pg/errors.hpp"
#include "persistence/sync/session_routes.hpp"
#include "persistence/sync/tenant_sessions.hpp"

namespace syncml::session {

bool distributed_sessions::routes_sessions(const persistence::tenant_info& tenant) const {
    return in_use() && tenant.settings.binding == persistence::session_binding::token_or_address &&
           settings_.session_address_idle.count() > 0;
}

std::int64_t distributed_sessions::route_user(persistence::database& db, const persistence::tenant_info& tenant,
                                              const sync_request& request, const message& in) const {
    if (!routes_sessions(tenant) || in.header.msg_id == "1" || request.remote_addr.empty()) return 0;
    return persistence::session_route_user(db, tenant.id, in.header.source.loc_uri, in.header.session_id,
                                           request.remote_addr,
                                           settings_.session_max_age + persistence::k_session_start_refresh);
}

bool distributed_sessions::record_start(persistence::database& db, const persistence::tenant_info& tenant,
                                        const sync_request& request, const message& in, std::int64_t user) const {
    if (!in_use()) return true;
    try {
        persistence::record_session_start(db, tenant.id, in.header.source.loc_uri, user, in.header.session_id,
                                          request.remote_addr);
        return true;
    } catch (const persistence::db_error& error) {
        common::log_event(spdlog::level::warn, "sync: session start not recorded", {{"error", error.what()}});
        return false;
    }
}

bool distributed_sessions::beyond_session_cap(persistence::database& db, const persistence::tenant_info& tenant) {
    if (!in_use() || tenant.settings.max_sessions <= 0) return false;
    return live_sessions_.at_limit(tenant.id, tenant.settings.max_sessions, [&](std::int64_t id, std::int64_t limit) {
        return persistence::count_live_sessions(db, id, limit, settings_.session_max_age);
    });
}

}  // namespace syncml::session
