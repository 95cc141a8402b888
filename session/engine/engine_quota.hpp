#pragma once
// Internal to the engine: the tenant's limits on items per datastore (tenants.max_items_per_datastore) and on the
// bytes of a user's items (tenants.max_user_bytes, the rule in persistence/sync/storage_quota.hpp).

#include <cstdint>

#include "persistence/sync/storage_quota.hpp"
#include "session/engine/engine_run.hpp"

namespace syncml::session::detail {

// Whether the datastore of `s` has room for one more item; counts it when it has, else counts the refusal (the
// caller answers 420, device full). `unflushed`: new items the caller queued and has not written yet. Costs no
// query while the datastore's modseq (an upper bound of its items) stays below the limit, then one bounded count.
bool take_item_slot(run& r, store_state& s, std::int64_t unflushed);
// An item that took a slot and was not written after all, or one deleted: room for another Add of this message.
void give_back_item_slot(store_state& s);

// Whether the user's byte quota lets this message write `growth` into an item of `s`; counts the bytes when it does,
// else counts the refusal and logs the message's first (the caller answers 420, device full). What the user holds is
// read once per message, at the first write that grows an item while the tenant has a quota.
bool take_user_bytes(run& r, const store_state& s, persistence::item_growth growth);
// A delete of an item of `bytes`: room for later writes of this message.
void give_back_user_bytes(run& r, std::int64_t bytes);

}  // namespace syncml::session::detail
