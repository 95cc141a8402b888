#pragma once
// Internal to the merge (merge_items.cpp, merge_contact.cpp, merge_calendar.cpp): the per-property rules every
// item kind shares. Not for the engine: it calls merge() in merge_items.hpp.

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "matching/model/capabilities.hpp"
#include "matching/model/item.hpp"

namespace syncml::matching {

enum class field_rule {
    union_merge,           // device values win where present; absent keeps stored; multi-valued unioned
    replace_storable,      // device copy is authoritative for what the device can store (known CTCap only)
    server_authoritative,  // stored wins; the device needs an update when its storable content differs
};

struct merge_context {
    const device_capabilities& caps;
    field_rule rule = field_rule::union_merge;
    bool device_update = false;
    std::vector<std::string> decisions;
    // merge policy: a device value equal to the stored one up to case, accents and detail keeps the stored form.
    bool keep_equivalent_stored = false;

    void note(std::string_view property, std::string_view what);
    // The device may be left without a value it could store.
    void device_lacks(std::string_view property);
    bool replacing() const { return rule == field_rule::replace_storable; }
};

inline bool is_absent(const std::string& value) { return value.empty(); }
template <class T>
bool is_absent(const std::optional<T>& value) {
    return !value;
}
template <class T>
bool is_absent(const std::vector<T>& value) {
    return value.empty();
}

// The device copy is the stored value cut to the device's MaxSize (and the device does not reject instead).
bool truncated_by_device(const merge_context& ctx, std::string_view property, const std::string& stored,
                         const std::string& incoming);
template <class T>
bool truncated_by_device(const merge_context&, std::string_view, const T&, const T&) {
    return false;
}

// A device copy that only lost case, accents or spacing (charset-poor phones) is not a change worth taking.
bool equivalent_text(const std::string& stored, const std::string& incoming);
template <class T>
bool equivalent_value(const T&, const T&) {
    return false;
}
inline bool equivalent_value(const std::string& stored, const std::string& incoming) {
    return equivalent_text(stored, incoming);
}
bool equivalent_value(const std::vector<std::string>& stored, const std::vector<std::string>& incoming);

template <class T>
void merge_single(merge_context& ctx, std::string_view property, T& out, const T& stored, const T& incoming) {
    out = stored;
    if (stored == incoming) return;
    if (!ctx.caps.can_store(property)) {
        if (!is_absent(stored)) ctx.note(property, "kept server value: device cannot store it");
        return;
    }
    if (truncated_by_device(ctx, property, stored, incoming)) {
        ctx.note(property, "kept longer server value: device copy is truncated to its MaxSize");
        return;
    }
    if (ctx.keep_equivalent_stored && !is_absent(incoming) && equivalent_value(stored, incoming)) return;
    if (ctx.rule == field_rule::server_authoritative) {
        ctx.device_lacks(property);
        ctx.note(property, "server value wins over device value");
    } else if (!is_absent(incoming)) {
        out = incoming;
        ctx.note(property, is_absent(stored) ? "added from device" : "device value replaces server value");
    } else if (ctx.replacing()) {
        out = incoming;
        ctx.note(property, "cleared: removed on the device");
    } else {
        ctx.device_lacks(property);
        ctx.note(property, "kept server value: absent from device copy");
    }
}

// The name a CTCap gives the creation time: vCalendar 1.0 and vNote 1.1 call it DCREATED, iCalendar CREATED.
std::string_view created_property(const device_capabilities& caps);

// Ints with a sentinel for "absent" (PRIORITY 0, PERCENT-COMPLETE and SEQUENCE -1).
void merge_int(merge_context& ctx, std::string_view property, int& out, int stored, int incoming, int absent);

// Whether the device can hold `entry` as one more instance next to `count` others (MaxOccur, TYPE values).
bool device_can_hold(const merge_context& ctx, std::string_view property, const std::vector<std::string>& types,
                     std::size_t count);

// Stored types the device cannot express survive; the device's choice wins for the rest.
std::vector<std::string> merged_types(const merge_context& ctx, std::string_view property,
                                      const std::vector<std::string>& stored, const std::vector<std::string>& incoming);

// TEL, EMAIL, URL and ADR entries carry TYPE values; CATEGORIES and EXDATE entries do not.
template <class T>
concept typed_entry = requires(T value) {
    value.types;
    value.preferred;
};

template <class T>
const std::vector<std::string>& types_of(const T& value) {
    static const std::vector<std::string> k_none;
    if constexpr (typed_entry<T>) {
        return value.types;
    } else {
        return k_none;
    }
}

template <class T>
void combine_entry(const merge_context& ctx, std::string_view property, T& base, const T& stored, const T& incoming) {
    if constexpr (typed_entry<T>) {
        base.types = merged_types(ctx, property, stored.types, incoming.types);
        base.preferred = incoming.preferred || (stored.preferred && ctx.rule == field_rule::union_merge);
    }
}

template <class T, class Key>
const T* find_by_key(const std::vector<T>& values, const std::string& key, Key key_of) {
    auto it = std::find_if(values.begin(), values.end(), [&](const T& v) { return key_of(v) == key; });
    return it == values.end() ? nullptr : &*it;
}

// One merge_multi of a property's entries: those of the base copy come first, then those only the other copy has,
// as the rule says.
template <class T, class Key>
struct multi_merge {
    merge_context& ctx;
    std::string_view property;
    const std::vector<T>& stored;
    const std::vector<T>& incoming;
    Key key_of;
    bool replace;  // the device's copy is the base

    const std::vector<T>& base() const { return replace ? incoming : stored; }
    const std::vector<T>& other() const { return replace ? stored : incoming; }

    // Each base entry once, combined with its twin in the other copy.
    void take_base(std::vector<T>& out) const {
        for (const auto& entry : base()) {
            if (find_by_key(out, key_of(entry), key_of)) continue;
            T merged = entry;
            if (const T* twin = find_by_key(other(), key_of(entry), key_of)) {
                combine_entry(ctx, property, merged, replace ? *twin : entry, replace ? entry : *twin);
            }
            out.push_back(std::move(merged));
        }
    }

    // The entries only the other copy has, kept or not as the rule says; true when a device value was dropped.
    bool take_others(std::vector<T>& out) const {
        bool device_missing = false;
        for (const auto& entry : other()) {
            if (find_by_key(out, key_of(entry), key_of)) continue;
            if (!replace && ctx.rule == field_rule::union_merge) {
                out.push_back(entry);
                ctx.note(property, "value added from device");
            } else if (!replace) {
                ctx.note(property, "device value dropped: server wins");
                device_missing = true;
            } else if (!device_can_hold(ctx, property, types_of(entry), incoming.size())) {
                out.push_back(entry);
                ctx.note(property, "kept server value the device cannot hold");
            } else {
                ctx.note(property, "value removed on the device");
            }
        }
        return device_missing;
    }

    // A stored entry the device could hold is missing from the device's copy.
    bool device_lacks_stored() const {
        return std::any_of(stored.begin(), stored.end(), [&](const T& entry) {
            return !find_by_key(incoming, key_of(entry), key_of) &&
                   device_can_hold(ctx, property, types_of(entry), incoming.size());
        });
    }
};

// Multi-valued properties (TEL, EMAIL, URL, ADR, CATEGORIES, EXDATE): entries are the same when key_of() says so.
template <class T, class Key>
void merge_multi(merge_context& ctx, std::string_view property, std::vector<T>& out, const std::vector<T>& stored,
                 const std::vector<T>& incoming, Key key_of) {
    out = stored;
    if (stored == incoming) return;
    if (!ctx.caps.can_store(property)) {
        if (!stored.empty()) ctx.note(property, "kept server values: device cannot store them");
        return;
    }
    const multi_merge<T, Key> entries{ctx, property, stored, incoming, key_of, ctx.replacing()};
    out.clear();
    entries.take_base(out);
    const bool device_missing = entries.take_others(out);
    if (entries.replace) return;
    if (device_missing || entries.device_lacks_stored()) ctx.device_lacks(property);
}

// Unknown and X- properties, by name: the device's set of a name replaces the stored one; names the device did
// not send are kept unless the device copy is authoritative for them.
void merge_extras(merge_context& ctx, std::vector<property>& out, const std::vector<property>& stored,
                  const std::vector<property>& incoming);

// Field-by-field merges of one kind; the caller picks the rule and derives stored_changed.
contact merge_contact(merge_context& ctx, const contact& stored, const contact& incoming);
calendar merge_calendar(merge_context& ctx, const calendar& stored, const calendar& incoming);
memo merge_memo(merge_context& ctx, const memo& stored, const memo& incoming);

// Identity properties (UID, RECURRENCE-ID) are never overwritten once the server has them: other devices and
// the item's matching keys refer to them.
inline std::string merged_identity(const std::string& stored, const std::string& incoming) {
    return stored.empty() ? incoming : stored;
}

}  // namespace syncml::matching
