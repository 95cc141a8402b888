#include "common/vocabulary/datastore_kind.hpp"

#include <array>
#include <utility>

namespace syncml::common {
namespace {

constexpr std::array<std::pair<item_kind, std::string_view>, 4> k_names{{
    {item_kind::contact, "contacts"},
    {item_kind::event, "calendar"},
    {item_kind::task, "tasks"},
    {item_kind::memo, "memos"},
}};

}  // namespace

std::string_view datastore_name(item_kind kind) {
    for (const auto& [k, name] : k_names) {
        if (k == kind) return name;
    }
    return "contacts";  // unreachable: every kind has a name
}

std::optional<item_kind> parse_datastore_name(std::string_view name) {
    for (const auto& [kind, n] : k_names) {
        if (n == name) return kind;
    }
    return std::nullopt;
}

}  // namespace syncml::common
