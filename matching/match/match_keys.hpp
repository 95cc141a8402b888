#pragma once
// Match keys: the normalized facts of an item that another device's copy of the same item is likely to share.
// The engine stores them per item in an indexed table (tenant, datastore, kind, value) -> item, and in a slow
// sync looks up the candidates of each incoming item by its keys, so no datastore is ever scanned.

#include <string>
#include <string_view>
#include <vector>

#include "matching/match/normalize_phone.hpp"
#include "matching/model/item.hpp"

namespace syncml::matching {

// Kinds of keys, as stored in the key table's `kind` column.
namespace key_kind {
inline constexpr std::string_view uid = "uid";                      // UID as sent (any kind)
inline constexpr std::string_view name = "name";                    // normalized_name / normalized_short_name
inline constexpr std::string_view tel = "tel";                      // phone_key
inline constexpr std::string_view email = "email";                  // normalized_email
inline constexpr std::string_view start_summary = "start+summary";  // events, journals
inline constexpr std::string_view summary_due = "summary+due";      // tasks
inline constexpr std::string_view text = "text";                    // memos: hash of the whole normalized text
inline constexpr std::string_view summary = "summary";              // memos: normalized first line
}  // namespace key_kind

struct match_key {
    std::string kind;
    std::string value;  // at most k_max_key_value bytes, so it fits a btree index entry
    bool operator==(const match_key&) const = default;
    auto operator<=>(const match_key&) const = default;
};

// Longer values are replaced by "#" + hash_key(value): equal values still give equal keys.
inline constexpr std::size_t k_max_key_value = 200;

struct match_options {
    phone_options phones;
    // Minimum twin score (see match_score.hpp) for a candidate to be paired with an incoming item.
    int threshold = 50;
};

// Sorted and without duplicates. Empty only for items without any identifying content.
std::vector<match_key> match_keys_of(const contact& value, const match_options& options = {});
// Keys of the calendar's primary component (see primary_component); timezones resolve TZIDs.
std::vector<match_key> match_keys_of(const calendar& value, const match_options& options = {});
std::vector<match_key> match_keys_of(const memo& value, const match_options& options = {});
std::vector<match_key> match_keys_of(const item& value, const match_options& options = {});

// "kind:value", the form item_match_keys.match_key (migration 0001) stores, e.g. "email:a@example.org".
std::string to_string(const match_key& key);

// The component a calendar item is about: the first one without RECURRENCE-ID (the master), else the first.
// Null for a calendar without components.
const calendar_component* primary_component(const calendar& value);

}  // namespace syncml::matching
