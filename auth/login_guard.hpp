#pragma once
// What bounds the cost of logins on one server instance, shared by both front ends: the budget of each client
// address (auth/address_budget.hpp) and the password hashes running at once (auth/hash_slots.hpp). The HTTP layer asks
// admits() before a request is queued; the login (auth/login.hpp) takes a slot and charges the address for every
// hash, and the SyncML service charges it for a session lookup that found nothing.

#include <chrono>
#include <string_view>

#include "auth/address_budget.hpp"
#include "auth/hash_slots.hpp"

namespace syncml::auth {

struct login_guard_settings {
    address_budget_settings budget{};
    hash_slot_settings hashes{};
};

class login_guard {
  public:
    explicit login_guard(login_guard_settings settings = {}) : budget_(settings.budget), slots_(settings.hashes) {}

    // How long a client must wait before its request is even queued; zero: queue it.
    std::chrono::seconds wait(std::string_view address) { return budget_.wait(address); }
    address_budget& budget() { return budget_; }
    hash_slots& slots() { return slots_; }

  private:
    address_budget budget_;
    hash_slots slots_;
};

}  // namespace syncml::auth
