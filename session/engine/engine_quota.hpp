#pragma once
// Internal to the engine: the tenant's limit on items per datastore (tenants.max_items_per_datastore).

#include <cstdint>

#include "session/engine/engine_run.hpp"

namespace syncml::session::detail {

// Whether the datastore of `s` has room for one more item; counts it when it has, else counts the refusal (the
// caller answers 420, device full). `unflushed`: new items the caller queued and has not written yet. Costs no
// query while the datastore's modseq (an upper bound of its items) stays below the limit, then one bounded count.
bool take_item_slot(run& r, store_state& s, std::int64_t unflushed);

}  // namespace syncml::session::detail
