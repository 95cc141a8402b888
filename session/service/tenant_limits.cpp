#include "session/service/tenant_limits.hpp"

#include <algorithm>
#include <cstdint>

#include "session/service/sync_replies.hpp"

namespace syncml::session {

void apply_tenant_limits(engine_context& ctx, const persistence::tenant_settings& tenant) {
    // The MaxMsgSize we announce is what we accept: the tenant's limit when it is the smaller one.
    ctx.max_msg_size = std::min<std::int64_t>(ctx.max_msg_size, tenant.max_message_bytes);
    ctx.max_obj_size = std::min<std::int64_t>(ctx.max_obj_size, tenant.max_object_bytes);
    ctx.max_items_per_datastore = tenant.max_items_per_datastore;
    ctx.max_user_bytes = tenant.max_user_bytes;
}

std::optional<sync_response> refuse_oversized_message(const sync_request& request,
                                                      const persistence::tenant_settings& tenant,
                                                      engine_metrics* metrics) {
    if (tenant.max_message_bytes <= 0 || request.body.size() <= static_cast<std::size_t>(tenant.max_message_bytes)) {
        return std::nullopt;
    }
    failure_scene scene;
    scene.bytes = request.body.size();
    return failure_reply(sync_failure::oversized, std::move(scene), metrics);
}

}  // namespace syncml::session
