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

std::optional<matching::item_kind> datastore_kind(std::string_view uri) {
    using matching::item_kind;
    static constexpr std::array<std::pair<std::string_view, item_kind>, 19> aliases{{
        {"contacts", item_kind::contact}, {"contact", item_kind::contact}, {"addressbook", item_kind::contact},
        {"card", item_kind::contact},     {"vcard", item_kind::contact},   {"calendar", item_kind::event},
        {"events", item_kind::event},     {"event", item_kind::event},     {"cal", item_kind::event},
        {"agenda", item_kind::event},     {"tasks", item_kind::task},      {"task", item_kind::task},
        {"todo", item_kind::task},        {"todos", item_kind::task},      {"notes", item_kind::memo},
        {"note", item_kind::memo},        {"memos", item_kind::memo},      {"memo", item_kind::memo},
        {"notepad", item_kind::memo},
    }};
    if (auto query = uri.find('?'); query != std::string_view::npos) uri = uri.substr(0, query);
    auto name = normalized(uri);
    for (const auto& [alias, kind] : aliases) {
        if (name == alias) return kind;
    }
    return std::nullopt;
}

bool same_store_uri(std::string_view a, std::string_view b) { return normalized(a) == normalized(b); }

std::string default_mime(matching::item_kind kind) {
    return std::string(matching::mime_of(matching::canonical_dialect(kind)));
}

}  // namespace syncml::session
