#include "matching/filter/filter_fields.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <string_view>

namespace syncml::matching {
namespace {

constexpr std::array<std::string_view, 4> k_contact_kept = {"N", "FN", "UID", "REV"};
constexpr std::array<std::string_view, 13> k_calendar_kept = {
    "UID",           "DTSTART", "DTEND",   "DUE",      "DURATION", "RRULE",        "RDATE",
    "RECURRENCE-ID", "EXDATE",  "DTSTAMP", "SEQUENCE", "CREATED",  "LAST-MODIFIED"};
constexpr std::array<std::string_view, 2> k_memo_kept = {"SUMMARY", "BODY"};

// One removable piece of an item: its property name, the size of its largest value (0 when absent) and how to
// take it out.
struct slot {
    std::string_view name;
    std::size_t size;
    std::function<void()> clear;
};

template <class T>
std::size_t largest(const std::vector<T>& values, std::size_t (*size_of)(const T&)) {
    std::size_t out = 0;
    for (const auto& v : values) out = std::max(out, size_of(v));
    return out;
}

std::size_t text_size(const std::string& s) { return s.size(); }
std::size_t typed_size(const typed_value& v) { return v.value.size(); }
std::size_t address_size(const address& a) {
    return a.po_box.size() + a.extended.size() + a.street.size() + a.locality.size() + a.region.size() +
           a.postal_code.size() + a.country.size() + 1;
}

class field_pruner {
  public:
    explicit field_pruner(const field_filter& filter) : filter_(filter) {}

    template <std::size_t N>
    void apply(std::vector<slot> slots, const std::array<std::string_view, N>& kept) {
        for (auto& s : slots) {
            if (s.size == 0 || std::find(kept.begin(), kept.end(), s.name) != kept.end()) continue;
            if (!wanted(s.name, s.size)) {
                s.clear();
                removed_.emplace_back(s.name);
            }
        }
    }

    template <std::size_t N>
    void apply_extras(std::vector<property>& extras, const std::array<std::string_view, N>& kept) {
        std::erase_if(extras, [&](const property& p) {
            if (std::find(kept.begin(), kept.end(), p.name) != kept.end() || wanted(p.name, p.value.size()))
                return false;
            removed_.push_back(p.name);
            return true;
        });
    }

    std::vector<std::string> removed() {
        std::sort(removed_.begin(), removed_.end());
        removed_.erase(std::unique(removed_.begin(), removed_.end()), removed_.end());
        return std::move(removed_);
    }

  private:
    bool wanted(std::string_view name, std::size_t size) const {
        const auto& ex = filter_.exclude;
        if (std::find(ex.begin(), ex.end(), name) != ex.end()) return false;
        if (filter_.max_value_size && size > *filter_.max_value_size) return false;
        for (const auto& limit : filter_.size_limits)
            if (limit.property == name && limit.max_size && size > *limit.max_size) return false;
        if (filter_.include.empty()) return true;
        auto rule = std::find_if(filter_.include.begin(), filter_.include.end(),
                                 [&](const field_rule& r) { return r.property == name; });
        return rule != filter_.include.end() && (!rule->max_size || size <= *rule->max_size);
    }

    const field_filter& filter_;
    std::vector<std::string> removed_;
};

void prune_contact(field_pruner& p, contact& c) {
    std::size_t org = 0;
    for (const auto& part : c.organization) org += part.size() + 1;
    std::size_t photo = c.picture ? std::max<std::size_t>(1, c.picture->data.size() + c.picture->uri.size()) : 0;
    p.apply(
        {
            {"NICKNAME", c.nickname.size(), [&] { c.nickname.clear(); }},
            {"TEL", largest(c.phones, typed_size), [&] { c.phones.clear(); }},
            {"EMAIL", largest(c.emails, typed_size), [&] { c.emails.clear(); }},
            {"URL", largest(c.urls, typed_size), [&] { c.urls.clear(); }},
            {"ADR", largest(c.addresses, address_size), [&] { c.addresses.clear(); }},
            {"ORG", org, [&] { c.organization.clear(); }},
            {"TITLE", c.title.size(), [&] { c.title.clear(); }},
            {"ROLE", c.role.size(), [&] { c.role.clear(); }},
            {"BDAY", c.birthday.size(), [&] { c.birthday.clear(); }},
            {"CATEGORIES", largest(c.categories, text_size), [&] { c.categories.clear(); }},
            {"NOTE", c.note.size(), [&] { c.note.clear(); }},
            {"PHOTO", photo, [&] { c.picture.reset(); }},
        },
        k_contact_kept);
    p.apply_extras(c.extra, k_contact_kept);
}

void prune_component(field_pruner& p, calendar_component& c) {
    auto number = [](bool present) -> std::size_t { return present ? 1 : 0; };
    p.apply(
        {
            {"SUMMARY", c.summary.size(), [&] { c.summary.clear(); }},
            {"DESCRIPTION", c.description.size(), [&] { c.description.clear(); }},
            {"LOCATION", c.location.size(), [&] { c.location.clear(); }},
            {"CATEGORIES", largest(c.categories, text_size), [&] { c.categories.clear(); }},
            {"STATUS", c.status.size(), [&] { c.status.clear(); }},
            {"CLASS", c.class_.size(), [&] { c.class_.clear(); }},
            {"TRANSP", c.transparency.size(), [&] { c.transparency.clear(); }},
            {"PRIORITY", number(c.priority != 0), [&] { c.priority = 0; }},
            {"PERCENT-COMPLETE", number(c.percent_complete >= 0), [&] { c.percent_complete = -1; }},
            {"COMPLETED", number(c.completed.has_value()), [&] { c.completed.reset(); }},
            {"VALARM", number(!c.alarms.empty()), [&] { c.alarms.clear(); }},
        },
        k_calendar_kept);
    p.apply_extras(c.extra, k_calendar_kept);
}

void prune_memo(field_pruner& p, memo& m) {
    p.apply(
        {
            {"CATEGORIES", largest(m.categories, text_size), [&] { m.categories.clear(); }},
            {"CLASS", m.class_.size(), [&] { m.class_.clear(); }},
        },
        k_memo_kept);
    p.apply_extras(m.extra, k_memo_kept);
}

}  // namespace

std::vector<std::string> apply_field_filter(const field_filter& filter, item& value) {
    if (filter.empty()) return {};
    field_pruner pruner(filter);
    if (auto* c = std::get_if<contact>(&value)) {
        prune_contact(pruner, *c);
    } else if (auto* cal = std::get_if<calendar>(&value)) {
        for (auto& component : cal->components) prune_component(pruner, component);
    } else {
        prune_memo(pruner, std::get<memo>(value));
    }
    return pruner.removed();
}

}  // namespace syncml::matching
