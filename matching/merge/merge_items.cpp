#include "matching/merge/merge_items.hpp"

#include <array>
#include <cctype>

#include "matching/match/match_keys.hpp"
#include "matching/match/normalize_text.hpp"
#include "matching/match/normalize_time.hpp"
#include "matching/merge/merge_fields.hpp"

namespace syncml::matching {

namespace {

constexpr std::array<std::pair<conflict_policy, std::string_view>, 5> k_policy_names = {{
    {conflict_policy::merge, "merge"},
    {conflict_policy::server_wins, "server-wins"},
    {conflict_policy::client_wins, "client-wins"},
    {conflict_policy::newest_wins, "newest-wins"},
    {conflict_policy::duplicate, "duplicate"},
}};

// Digits of a timestamp padded to YYYYMMDDHHMMSS so that "2024-01-31" and "20240131T120000Z" compare.
std::string timestamp_digits(std::string_view text) {
    std::string digits;
    for (char c : text) {
        if (std::isdigit(static_cast<unsigned char>(c))) digits.push_back(c);
    }
    if (digits.size() < 8) return {};
    digits.resize(14, '0');
    return digits;
}

std::string timestamp_of(const item& value) {
    if (const auto* c = std::get_if<contact>(&value)) return timestamp_digits(c->revision);
    if (const auto* m = std::get_if<memo>(&value)) {
        return m->last_modified ? timestamp_digits(normalized_time(*m->last_modified, {})) : std::string();
    }
    const auto& cal = std::get<calendar>(value);
    const calendar_component* c = primary_component(cal);
    if (!c) return {};
    const auto& t = c->last_modified ? c->last_modified : c->stamp;
    return t ? timestamp_digits(normalized_time(*t, cal.timezones)) : std::string();
}

field_rule rule_for(conflict_policy policy, const item& stored, const item& incoming, merge_context& ctx) {
    if (policy == conflict_policy::newest_wins) {
        std::string s = timestamp_of(stored), i = timestamp_of(incoming);
        bool device_newer = !s.empty() && !i.empty() && i > s;
        ctx.note("item", device_newer ? "newest wins: device copy is newer"
                                      : "newest wins: server copy kept (newer or no timestamps)");
        policy = device_newer ? conflict_policy::client_wins : conflict_policy::server_wins;
    }
    if (policy == conflict_policy::server_wins) return field_rule::server_authoritative;
    if (policy == conflict_policy::client_wins && ctx.caps.known) return field_rule::replace_storable;
    return field_rule::union_merge;
}

item merge_fields(merge_context& ctx, const item& stored, const item& incoming) {
    if (const auto* c = std::get_if<contact>(&stored)) return merge_contact(ctx, *c, std::get<contact>(incoming));
    if (const auto* m = std::get_if<memo>(&stored)) return merge_memo(ctx, *m, std::get<memo>(incoming));
    return merge_calendar(ctx, std::get<calendar>(stored), std::get<calendar>(incoming));
}

merge_result run(const item& stored, const item& incoming, merge_context ctx) {
    merge_result r;
    r.merged = merge_fields(ctx, stored, incoming);
    r.stored_changed = r.merged != stored;
    r.device_needs_update = ctx.device_update;
    r.decisions = std::move(ctx.decisions);
    return r;
}

}  // namespace

std::string_view name_of(conflict_policy policy) {
    for (const auto& [p, name] : k_policy_names) {
        if (p == policy) return name;
    }
    return "merge";
}

std::optional<conflict_policy> conflict_policy_from_name(std::string_view name) {
    for (const auto& [p, n] : k_policy_names) {
        if (n == name) return p;
    }
    return std::nullopt;
}

memo merge_memo(merge_context& ctx, const memo& stored, const memo& incoming) {
    memo out;
    merge_single(ctx, "SUMMARY", out.summary, stored.summary, incoming.summary);
    merge_single(ctx, "BODY", out.body, stored.body, incoming.body);
    merge_multi(ctx, "CATEGORIES", out.categories, stored.categories, incoming.categories,
                [](const std::string& c) { return fold_text(c); });
    merge_single(ctx, "CLASS", out.class_, stored.class_, incoming.class_);
    merge_single(ctx, created_property(ctx.caps), out.created, stored.created, incoming.created);
    merge_single(ctx, "LAST-MODIFIED", out.last_modified, stored.last_modified, incoming.last_modified);
    merge_extras(ctx, out.extra, stored.extra, incoming.extra);
    return out;
}

merge_result merge(const item& stored, const item& incoming, const device_capabilities& caps, conflict_policy policy,
                   merge_mode mode) {
    if (stored.index() != incoming.index()) {
        merge_result r;
        r.merged = incoming;
        r.keep_both = true;
        r.decisions.push_back("item: kinds differ, kept both copies");
        return r;
    }
    merge_context ctx{caps, field_rule::union_merge, false, {}, false};
    ctx.rule = rule_for(policy, stored, incoming, ctx);
    // A Replace without a server-side change: the device copy is authoritative for what it can store.
    if (mode == merge_mode::update && caps.known && ctx.rule == field_rule::union_merge) {
        ctx.rule = field_rule::replace_storable;
    }
    ctx.keep_equivalent_stored = ctx.rule == field_rule::union_merge &&
                                 (policy == conflict_policy::merge || policy == conflict_policy::duplicate);
    merge_result r = run(stored, incoming, std::move(ctx));
    // Keeping both only makes sense for a true conflict: a device copy that adds nothing is no second item.
    if (policy == conflict_policy::duplicate && r.stored_changed) {
        r.merged = incoming;
        r.stored_changed = false;
        r.device_needs_update = false;
        r.keep_both = true;
        r.decisions.push_back("item: conflict, kept both copies (duplicate policy)");
    }
    return r;
}

}  // namespace syncml::matching
