#pragma once
// The tenant's quota on the bytes of a user's items (tenants.max_user_bytes), the one rule both front ends apply to a
// write before they make it: the SyncML engine to a client's Add and Replace (session/engine/engine_quota.cpp, 420
// device full), the DAV front end to a PUT (dav/dav_handler.cpp, 507 Insufficient Storage), and `user import`. What a
// user holds is datastores.stored_bytes summed (item_quota::user_stored_bytes): the bytes of its live items, kept by
// every item write in the transaction that takes the datastore's modseq (migration 0033). A write is weighed against
// what the user held when it was decided: writers of one user at the same moment (two phones, a phone and a DAV
// client) may each pass and together go beyond the quota by what one message or request writes. A bound on load, not
// an exact ledger: it takes no lock the user's other writers would wait for.

#include <cstdint>

namespace syncml::persistence {

// One item write as the quota sees it: the bytes of the item's content before (0 for a new item) and after.
struct item_growth {
    std::int64_t before = 0;
    std::int64_t after = 0;
};

// Whether a quota of `max_user_bytes` (0: no quota) has a say in `write` at all: only a write that grows its item
// does. A delete or a replace by as many bytes or fewer always passes, so that a user over the quota (after an
// operator lowered it) can still edit and make room; callers ask this first and read what the user holds only when
// it is true.
bool quota_applies(std::int64_t max_user_bytes, item_growth write);

// Whether a user who holds `stored` bytes may make `write`: a write the quota applies to may take the user up to the
// quota, not beyond; any other passes.
bool quota_allows(std::int64_t max_user_bytes, std::int64_t stored, item_growth write);

}  // namespace syncml::persistence
