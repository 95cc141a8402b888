#pragma once
// The kind of item a datastore holds, and its name. The name is what the database (datastores.kind), URLs and DAV
// collection names, JSON, the session state, logs and our DevInf spell; code past those edges holds the item_kind.
// It lives in common, not in matching, because persistence (which may not include matching) takes it too.

#include <optional>
#include <string_view>

namespace syncml::common {

enum class item_kind { contact, event, task, memo };

// contact: "contacts", event: "calendar", task: "tasks", memo: "memos".
std::string_view datastore_name(item_kind kind);
// The inverse of datastore_name; nullopt for any other text (case-sensitive: the names as stored).
std::optional<item_kind> parse_datastore_name(std::string_view name);

}  // namespace syncml::common
