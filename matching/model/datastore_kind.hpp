#pragma once
// The datastore a kind of item lives in, by name: the name is what the database (datastores.kind), the session
// state, logs and our DevInf spell; code past those edges holds the item_kind.

#include <optional>
#include <string_view>

#include "matching/model/item.hpp"

namespace syncml::matching {

// contact: "contacts", event: "calendar", task: "tasks", memo: "memos".
std::string_view datastore_name(item_kind kind);
// The inverse of datastore_name; nullopt for any other text (case-sensitive: the names as stored).
std::optional<item_kind> parse_datastore_name(std::string_view name);

}  // namespace syncml::matching
