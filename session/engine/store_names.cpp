#include "session/engine/store_names.hpp"

#include "common/text/ascii_case.hpp"
#include "matching/convert/item_convert.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <utility>

namespace syncml::session {

namespace {

std::string_view without_query(std::string_view uri) { return uri.substr(0, uri.find('?')); }

std::string normalized(std::string_view uri) {
    if (uri.starts_with("./")) uri.remove_prefix(2);
    while (uri.ends_with('/')) uri.remove_suffix(1);
    return common::to_lower(uri);
}

// Funambol's names for its SIF datastores.
constexpr std::array<std::pair<std::string_view, matching::item_dialect>, 4> k_sif_stores{{
    {"scard", matching::item_dialect::sifc},
    {"scal", matching::item_dialect::sife},
    {"stask", matching::item_dialect::sift},
    {"snote", matching::item_dialect::sifn},
}};

}  // namespace

std::optional<matching::item_kind> datastore_kind(std::string_view uri) {
    using matching::item_kind;
    static constexpr std::array<std::pair<std::string_view, item_kind>, 23> aliases{{
        {"contacts", item_kind::contact}, {"contact", item_kind::contact}, {"addressbook", item_kind::contact},
        {"card", item_kind::contact},     {"vcard", item_kind::contact},   {"calendar", item_kind::event},
        {"events", item_kind::event},     {"event", item_kind::event},     {"cal", item_kind::event},
        {"agenda", item_kind::event},     {"tasks", item_kind::task},      {"task", item_kind::task},
        {"todo", item_kind::task},        {"todos", item_kind::task},      {"notes", item_kind::memo},
        {"note", item_kind::memo},        {"memos", item_kind::memo},      {"memo", item_kind::memo},
        {"notepad", item_kind::memo},     {"scard", item_kind::contact},   {"scal", item_kind::event},
        {"stask", item_kind::task},       {"snote", item_kind::memo},
    }};
    auto name = normalized(without_query(uri));
    for (const auto& [alias, kind] : aliases) {
        if (name == alias) return kind;
    }
    return std::nullopt;
}

std::optional<std::string> sif_type_of_store(std::string_view uri) {
    auto name = normalized(without_query(uri));
    for (const auto& [store, dialect] : k_sif_stores) {
        if (name == store) return std::string(matching::mime_of(dialect));
    }
    return std::nullopt;
}

bool same_store_uri(std::string_view a, std::string_view b) { return normalized(a) == normalized(b); }

collection_in_uri collection_option(std::string_view uri) {
    constexpr std::string_view key = "collection=";
    const auto question = uri.find('?');
    if (question == std::string_view::npos) return {std::string(uri), std::string()};
    std::string query(uri.substr(question + 1));
    std::size_t at = 0;
    while ((at = query.find(key, at)) != std::string::npos && at != 0 && query[at - 1] != '&') ++at;
    if (at == std::string::npos) return {std::string(uri), std::string()};
    auto end = query.find_first_of("&/", at + key.size());
    if (end == std::string::npos) end = query.size();
    auto name = query.substr(at + key.size(), end - at - key.size());
    const bool plain = std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '~' || c == '@';
    });
    collection_in_uri out;
    if (!name.empty() && name.front() != '.' && plain) out.collection = std::move(name);
    // The option goes with one '&' that separated it from the rest.
    if (end < query.size() && query[end] == '&') {
        ++end;
    } else if (at > 0) {
        --at;
    }
    query.erase(at, end - at);
    out.uri = std::string(uri.substr(0, question)) + (query.empty() ? "" : "?" + query);
    return out;
}

std::string default_mime(matching::item_kind kind) {
    return std::string(matching::mime_of(matching::canonical_dialect(kind)));
}

}  // namespace syncml::session
