#pragma once
// The sync store's role for the tenant's settings the engine reads inside the message's transaction (see
// sync_store.hpp).

#include <cstdint>

#include "common/vocabulary/conflict_policy.hpp"

namespace syncml::persistence {

class tenant_policy {
  public:
    virtual ~tenant_policy() = default;

    // The tenant's conflict policy (tenants.conflict_policy); merge when the stored text names none.
    virtual common::conflict_policy conflict_policy(std::int64_t tenant) = 0;
};

}  // namespace syncml::persistence
