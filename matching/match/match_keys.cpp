#include "matching/match/match_keys.hpp"

#include <algorithm>

#include "matching/match/normalize_text.hpp"
#include "matching/match/normalize_time.hpp"

namespace syncml::matching {

namespace {

void add(std::vector<match_key>& keys, std::string_view kind, std::string value) {
    if (value.empty()) return;
    if (value.size() > k_max_key_value) value = "#" + hash_key(value);
    keys.push_back({std::string(kind), std::move(value)});
}

std::vector<match_key> finish(std::vector<match_key> keys) {
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    return keys;
}

std::string optional_time(const std::optional<date_time>& value, const std::vector<timezone_def>& timezones) {
    return value ? normalized_time(*value, timezones) : std::string();
}

}  // namespace

std::string to_string(const match_key& key) { return key.kind + ":" + key.value; }

const calendar_component* primary_component(const calendar& value) {
    for (const auto& c : value.components) {
        if (!c.recurrence_id) return &c;
    }
    return value.components.empty() ? nullptr : &value.components.front();
}

std::vector<match_key> match_keys_of(const contact& value, const match_options& options) {
    std::vector<match_key> keys;
    add(keys, key_kind::uid, value.uid);
    add(keys, key_kind::name, normalized_name(value));
    add(keys, key_kind::name, normalized_short_name(value));
    for (const auto& tel : value.phones) add(keys, key_kind::tel, phone_key(tel.value, options.phones));
    for (const auto& mail : value.emails) add(keys, key_kind::email, normalized_email(mail.value));
    return finish(std::move(keys));
}

std::vector<match_key> match_keys_of(const calendar& value, const match_options&) {
    std::vector<match_key> keys;
    const calendar_component* c = primary_component(value);
    if (!c) return keys;
    // Exceptions share the master's UID; the recurrence id keeps their key apart from the master's.
    std::string uid = c->uid;
    if (!uid.empty() && c->recurrence_id) uid += " " + normalized_time(*c->recurrence_id, value.timezones);
    add(keys, key_kind::uid, uid);
    std::string summary = normalized_summary(c->summary);
    if (c->kind == item_kind::task) {
        if (!summary.empty()) add(keys, key_kind::summary_due, optional_time(c->due, value.timezones) + "|" + summary);
    } else if (c->start || !summary.empty()) {
        add(keys, key_kind::start_summary, optional_time(c->start, value.timezones) + "|" + summary);
    }
    return finish(std::move(keys));
}

std::vector<match_key> match_keys_of(const memo& value, const match_options&) {
    std::vector<match_key> keys;
    std::string text = normalized_memo_text(value.body.empty() ? value.summary : value.body);
    if (!text.empty()) add(keys, key_kind::text, hash_key(text));
    std::string_view first = value.body.empty() ? std::string_view(value.summary) : std::string_view(value.body);
    first = first.substr(0, first.find_first_of("\r\n"));
    add(keys, key_kind::summary, normalized_summary(first));
    return finish(std::move(keys));
}

std::vector<match_key> match_keys_of(const item& value, const match_options& options) {
    return std::visit([&](const auto& v) { return match_keys_of(v, options); }, value);
}

}  // namespace syncml::matching
