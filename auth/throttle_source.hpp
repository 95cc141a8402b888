#pragma once
// Where a front end gets the auth throttle it counts a login with: one per message or request, on the database
// connection that serves it. The front ends hold a source, not the PostgreSQL class, so that their tests can count
// logins in a fake and the throttle's storage can change in one place.

#include <functional>
#include <memory>

#include "persistence/accounts/auth_throttle.hpp"

namespace syncml::persistence {
class database;
}  // namespace syncml::persistence

namespace syncml::auth {

using throttle_source = std::function<std::unique_ptr<persistence::auth_throttle>(persistence::database&)>;

// The throttle in the database (persistence/accounts/auth_throttle.hpp) with these settings.
throttle_source database_throttle(const persistence::throttle_settings& settings);

}  // namespace syncml::auth
