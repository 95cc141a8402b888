#include "session/engine/store_names.hpp"

#include "common/text/ascii_case.hpp"
#include "matching/convert/item_convert.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace syncml::session {

namespace {

std::string normalized(std::string_view uri) {
    if (uri.starts_with("./")) uri.remove_prefix(2);
    while (uri.ends_with('/')) uri.remove_suffix(1);
    return common::to_lower(uri);
}

}  // namespace

std::optional<std::string> datastore_kind(std::string_view uri) {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 19> aliases{{
        {"contacts", "contacts"}, {"contact", "contacts"},  {"addressbook", "contacts"}, {"card", "contacts"},
        {"vcard", "contacts"},    {"calendar", "calendar"}, {"events", "calendar"},      {"event", "calendar"},
        {"cal", "calendar"},      {"agenda", "calendar"},   {"tasks", "tasks"},          {"task", "tasks"},
        {"todo", "tasks"},        {"todos", "tasks"},       {"notes", "memos"},          {"note", "memos"},
        {"memos", "memos"},       {"memo", "memos"},        {"notepad", "memos"},
    }};
    if (auto query = uri.find('?'); query != std::string_view::npos) uri = uri.substr(0, query);
    auto name = normalized(uri);
    for (const auto& [alias, kind] : aliases) {
        if (name == alias) return std::string(kind);
    }
    return std::nullopt;
}

bool same_store_uri(std::string_view a, std::string_view b) { return normalized(a) == normalized(b); }

std::string default_mime(std::string_view kind) {
    return std::string(matching::mime_of(matching::canonical_dialect(kind)));
}

}  // namespace syncml::session
