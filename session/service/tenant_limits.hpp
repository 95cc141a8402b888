#pragma once
// A tenant's limits (tenants table: max_message_bytes, max_object_bytes, max_items_per_datastore, max_user_bytes) as
// sync_service applies them to a message: the request body before anything decodes it, the rest through the engine's
// context.

#include <optional>

#include "persistence/accounts/accounts.hpp"
#include "session/engine/engine.hpp"
#include "session/engine/engine_metrics.hpp"
#include "session/service/sync_handler.hpp"

namespace syncml::session {

// The smaller of the server's and the tenant's message and object sizes (ctx holds the server's), the tenant's
// item quota per datastore and byte quota per user.
void apply_tenant_limits(engine_context& ctx, const persistence::tenant_settings& tenant);

// HTTP 413 (counted and logged, sync_replies.hpp) for a body beyond the tenant's max_message_bytes; nullopt for one
// within. The front end's body limit is the server's, the same for every tenant; this one is checked once the URL named
// the tenant.
std::optional<sync_response> refuse_oversized_message(const sync_request& request,
                                                      const persistence::tenant_settings& tenant,
                                                      engine_metrics* metrics);

}  // namespace syncml::session
