#pragma once
// The database ids of tenants, users, devices and datastores as distinct types, so that a call that passes a user
// where a device goes (the persistence seams take several of them in a row) does not compile. They convert to the
// bare number only explicitly, at the SQL boundary (pqxx parameters and results), in logs and in the session state.
//
// Naming: the types are common::tenant_id, common::user_id, ... and are always written qualified. Many structs and
// variables are named tenant_id or user_id already (account.tenant_id, st.user_id); a qualified type name never
// clashes with them, where an unqualified one (a using-declaration in each module) would be hidden by those members.

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace syncml::common {

// One id type per Tag. Zero, the default, is no row ("none yet", as the database never hands out 0).
template <class Tag>
class database_id {
  public:
    constexpr database_id() = default;
    constexpr explicit database_id(std::int64_t value) : value_(value) {}

    constexpr std::int64_t value() const { return value_; }

    friend constexpr auto operator<=>(database_id, database_id) = default;

  private:
    std::int64_t value_ = 0;
};

// The decimal number, as logs and the session state print it.
template <class Tag>
std::string to_string(database_id<Tag> id) {
    return std::to_string(id.value());
}

using tenant_id = database_id<struct tenant_tag>;
using user_id = database_id<struct user_tag>;
using device_id = database_id<struct device_tag>;
using datastore_id = database_id<struct datastore_tag>;

}  // namespace syncml::common

template <class Tag>
struct std::hash<syncml::common::database_id<Tag>> {
    std::size_t operator()(syncml::common::database_id<Tag> id) const noexcept {
        return std::hash<std::int64_t>{}(id.value());
    }
};
