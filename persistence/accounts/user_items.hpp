#pragma once
// A user's live items for `admin user export` and the admin API's export. (`user import` adds items through
// sync_store::add_item, as a device's Add does, so that devices get them as server adds.)

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/vocabulary/datastore_kind.hpp"

namespace syncml::persistence {

class database;

struct user_item {
    std::string kind;     // contacts, calendar, tasks, memos: the kind of its datastore
    std::string content;  // canonical form (vCard 3.0, iCalendar 2.0, plain text)
};

struct user_ids {
    std::int64_t tenant = 0;
    std::int64_t user = 0;
};

// The tenant's and user's ids; not_found for an unknown tenant or user.
user_ids require_user(database& db, std::string_view tenant, std::string_view user);

// Every live item of the user (of its datastore of `kind` only, when given), by datastore kind and then in the
// order they were added; read in one transaction.
std::vector<user_item> live_user_items(database& db, const user_ids& ids,
                                       std::optional<common::item_kind> kind = std::nullopt);

}  // namespace syncml::persistence
