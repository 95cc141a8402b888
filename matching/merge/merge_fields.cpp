#include "matching/merge/merge_fields.hpp"

#include <set>

#include "matching/match/normalize_text.hpp"

namespace syncml::matching {

void merge_context::note(std::string_view property, std::string_view what) {
    std::string line(property);
    line += ": ";
    line += what;
    if (decisions.empty() || decisions.back() != line) decisions.push_back(std::move(line));
}

void merge_context::device_lacks(std::string_view property) {
    // Without CTCap the device may simply be unable to store the value: sending it again would not help.
    if (caps.known || rule == field_rule::server_authoritative) {
        if (caps.can_store(property)) device_update = true;
    }
}

bool equivalent_text(const std::string& stored, const std::string& incoming) {
    return fold_text(stored) == fold_text(incoming);
}

bool equivalent_value(const std::vector<std::string>& stored, const std::vector<std::string>& incoming) {
    return stored.size() == incoming.size() &&
           std::equal(stored.begin(), stored.end(), incoming.begin(), equivalent_text);
}

bool truncated_by_device(const merge_context& ctx, std::string_view property, const std::string& stored,
                         const std::string& incoming) {
    const property_capability* cap = ctx.caps.find(property);
    if (!cap || !cap->max_size || cap->no_truncate) return false;
    return !incoming.empty() && incoming.size() < stored.size() && incoming.size() <= *cap->max_size &&
           stored.compare(0, incoming.size(), incoming) == 0;
}

std::string_view created_property(const device_capabilities& caps) {
    return caps.find("DCREATED") && !caps.find("CREATED") ? "DCREATED" : "CREATED";
}

void merge_int(merge_context& ctx, std::string_view property, int& out, int stored, int incoming, int absent) {
    std::optional<int> s = stored == absent ? std::nullopt : std::optional<int>(stored);
    std::optional<int> i = incoming == absent ? std::nullopt : std::optional<int>(incoming);
    std::optional<int> merged;
    merge_single(ctx, property, merged, s, i);
    out = merged.value_or(absent);
}

bool device_can_hold(const merge_context& ctx, std::string_view property, const std::vector<std::string>& types,
                     std::size_t count) {
    const property_capability* cap = ctx.caps.find(property);
    if (!cap) return ctx.caps.can_store(property);
    if (cap->max_occur && count >= *cap->max_occur) return false;
    if (types.empty() || cap->params.count("TYPE") == 0) return true;
    return std::any_of(types.begin(), types.end(),
                       [&](const std::string& t) { return cap->supports_param_value("TYPE", t); });
}

std::vector<std::string> merged_types(const merge_context& ctx, std::string_view property,
                                      const std::vector<std::string>& stored,
                                      const std::vector<std::string>& incoming) {
    if (ctx.rule == field_rule::server_authoritative) return stored;
    const property_capability* cap = ctx.caps.find(property);
    bool lists_types = cap && cap->params.count("TYPE") > 0;
    std::vector<std::string> out = incoming;
    for (const auto& t : stored) {
        bool expressible = lists_types && cap->supports_param_value("TYPE", t);
        bool keep = lists_types ? !expressible : ctx.rule == field_rule::union_merge;
        if (keep && std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    }
    return out;
}

void merge_extras(merge_context& ctx, std::vector<property>& out, const std::vector<property>& stored,
                  const std::vector<property>& incoming) {
    if (stored == incoming) {
        out = stored;
        return;
    }
    bool server = ctx.rule == field_rule::server_authoritative;
    const auto& base = server ? stored : incoming;
    const auto& other = server ? incoming : stored;
    std::set<std::string> base_names;
    for (const auto& p : base) base_names.insert(p.name);
    out = base;
    std::set<std::string> reported;
    for (const auto& p : other) {
        if (base_names.count(p.name)) continue;
        bool first = reported.insert(p.name).second;
        if (server) {
            if (first) ctx.note(p.name, "device value dropped: server wins");
            ctx.device_lacks(p.name);
        } else if (ctx.replacing() && ctx.caps.can_store(p.name)) {
            if (first) ctx.note(p.name, "cleared: removed on the device");
        } else {
            out.push_back(p);
            if (first) ctx.note(p.name, "kept server value: absent from device copy");
            ctx.device_lacks(p.name);
        }
    }
}

}  // namespace syncml::matching
