#include "matching/filter/filter_values.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "common/text/ascii_case.hpp"
#include "matching/calendar/calendar_values.hpp"
#include "matching/content/content_line.hpp"
#include "matching/filter/item_span.hpp"

namespace syncml::matching {
namespace {

bool contains_ascii_case(const std::vector<std::string>& values, std::string_view wanted) {
    return std::any_of(values.begin(), values.end(), [&](const std::string& v) { return common::iequals(v, wanted); });
}

constexpr std::array<std::string_view, 5> k_name_parts = {"FAMILY", "GIVEN", "ADDITIONAL", "PREFIX", "SUFFIX"};
constexpr std::array<std::string_view, 7> k_address_parts = {"POBOX",  "EXTENDED", "STREET", "LOCALITY",
                                                             "REGION", "CODE",     "COUNTRY"};
constexpr int k_max_sub_field = 16;

// Collects the values of one property reference; the item walkers call add() for every instance they hold.
struct collector {
    const property_ref& ref;
    std::vector<filter_value>& out;
    std::optional<int> sub = ref.sub_field.empty() ? std::nullopt : sub_field_index(ref.name, ref.sub_field);

    bool wants(std::string_view name) const { return ref.name == name; }
    bool unrestricted() const { return ref.param_name.empty(); }

    void add(const std::string& text) {
        if (!text.empty() && !sub && unrestricted()) out.push_back({text, std::nullopt});
    }
    void add_date(const std::optional<date_time>& d, const std::vector<timezone_def>& zones) {
        if (d && !sub && unrestricted()) out.push_back({format_date_time(*d), instant_seconds(*d, zones)});
    }
    void add_number(int n, bool present) {
        if (present && !sub && unrestricted()) out.push_back({std::to_string(n), std::nullopt});
    }
    void add_list(const std::vector<std::string>& values) {
        for (const auto& v : values) add(v);
    }
    // Structured values: the whole value joined with ';' or the component the reference names.
    template <std::size_t N>
    void add_parts(const std::array<const std::string*, N>& parts) {
        if (!sub) {
            std::string joined;
            for (std::size_t i = 0; i < N; ++i) joined += (i ? ";" : "") + *parts[i];
            if (joined.size() > N - 1) out.push_back({joined, std::nullopt});
        } else if (*sub < static_cast<int>(N) && !parts[*sub]->empty()) {
            out.push_back({*parts[*sub], std::nullopt});
        }
    }
    bool params_match(const std::vector<std::string>& types, const std::vector<param>& params) const {
        if (unrestricted()) return true;
        if (ref.param_name == "TYPE" && contains_ascii_case(types, ref.param_value)) return true;
        return std::any_of(params.begin(), params.end(), [&](const param& p) {
            bool named = common::iequals(p.name, ref.param_name) || (p.name.empty() && ref.param_name == "TYPE");
            return named && (ref.param_value.empty() || contains_ascii_case(p.values, ref.param_value));
        });
    }
    void add_typed(const std::vector<typed_value>& values) {
        for (const auto& v : values)
            if (!sub && params_match(v.types, v.extra_params) && !v.value.empty()) out.push_back({v.value, {}});
    }
    void add_extras(const std::vector<property>& extras) {
        for (const auto& p : extras) {
            if (p.name != ref.name || !params_match({}, p.params)) continue;
            std::string text;
            if (sub) {
                auto parts = split_escaped(p.value, ';', static_cast<std::size_t>(*sub) + 2);
                if (static_cast<std::size_t>(*sub) >= parts.size()) continue;
                text = unescape_text(parts[*sub]);
            } else {
                text = unescape_text(p.value);
            }
            if (text.empty()) continue;
            std::optional<std::int64_t> instant;
            if (kind_of_property(ref.name) == value_kind::date) {
                if (auto d = parse_date_time(text)) instant = instant_seconds(*d, {});
            }
            out.push_back({std::move(text), instant});
        }
    }
};

void contact_values(const contact& c, collector& in) {
    if (in.wants("FN")) in.add(c.formatted_name);
    if (in.wants("NICKNAME")) in.add(c.nickname);
    if (in.wants("TITLE")) in.add(c.title);
    if (in.wants("ROLE")) in.add(c.role);
    if (in.wants("NOTE")) in.add(c.note);
    if (in.wants("UID")) in.add(c.uid);
    if (in.wants("CATEGORIES")) in.add_list(c.categories);
    if (in.wants("TEL")) in.add_typed(c.phones);
    if (in.wants("EMAIL")) in.add_typed(c.emails);
    if (in.wants("URL")) in.add_typed(c.urls);
    if (in.wants("N") && c.name && in.unrestricted()) {
        const auto& n = *c.name;
        in.add_parts(std::array{&n.family, &n.given, &n.additional, &n.prefix, &n.suffix});
    }
    if (in.wants("ORG") && in.unrestricted()) {
        if (!in.sub) {
            std::string joined;
            for (const auto& part : c.organization) joined += (joined.empty() ? "" : ";") + part;
            in.add(joined);
        } else if (*in.sub < static_cast<int>(c.organization.size()) && !c.organization[*in.sub].empty()) {
            in.out.push_back({c.organization[*in.sub], std::nullopt});
        }
    }
    if (in.wants("ADR")) {
        for (const auto& a : c.addresses) {
            if (!in.params_match(a.types, a.extra_params)) continue;
            in.add_parts(
                std::array{&a.po_box, &a.extended, &a.street, &a.locality, &a.region, &a.postal_code, &a.country});
        }
    }
    if (in.wants("PHOTO") && c.picture) in.add(c.picture->data.empty() ? c.picture->uri : c.picture->data);
    for (auto [name, text] : {std::pair{"BDAY", &c.birthday}, std::pair{"LAST-MODIFIED", &c.revision}}) {
        if (!in.wants(name) || text->empty() || in.sub || !in.unrestricted()) continue;
        auto d = parse_date_time(*text);
        in.out.push_back({*text, d ? std::optional(instant_seconds(*d, {})) : std::nullopt});
    }
    in.add_extras(c.extra);
}

void component_values(const calendar_component& c, const std::vector<timezone_def>& zones, collector& in) {
    for (auto [name, text] :
         {std::pair{"SUMMARY", &c.summary}, std::pair{"DESCRIPTION", &c.description},
          std::pair{"LOCATION", &c.location}, std::pair{"UID", &c.uid}, std::pair{"STATUS", &c.status},
          std::pair{"CLASS", &c.class_}, std::pair{"TRANSP", &c.transparency}, std::pair{"DURATION", &c.duration}})
        if (in.wants(name)) in.add(*text);
    for (auto [name, date] : {std::pair{"DTSTART", &c.start}, std::pair{"DTEND", &c.end}, std::pair{"DUE", &c.due},
                              std::pair{"COMPLETED", &c.completed}, std::pair{"RECURRENCE-ID", &c.recurrence_id},
                              std::pair{"CREATED", &c.created}, std::pair{"LAST-MODIFIED", &c.last_modified},
                              std::pair{"DTSTAMP", &c.stamp}})
        if (in.wants(name)) in.add_date(*date, zones);
    if (in.wants("CATEGORIES")) in.add_list(c.categories);
    if (in.wants("PRIORITY")) in.add_number(c.priority, c.priority != 0);
    if (in.wants("PERCENT-COMPLETE")) in.add_number(c.percent_complete, c.percent_complete >= 0);
    if (in.wants("SEQUENCE")) in.add_number(c.sequence, c.sequence >= 0);
    if (in.wants("RRULE"))
        for (const auto& r : c.rrules) in.add(format_rrule(r));
    if (in.wants("EXDATE"))
        for (const auto& d : c.exdates) in.add_date(d, zones);
    if (in.wants("RDATE"))
        for (const auto& d : c.rdates) in.add_date(d, zones);
    in.add_extras(c.extra);
}

void memo_values(const memo& m, collector& in) {
    if (in.wants("SUMMARY")) in.add(m.summary);
    if (in.wants("BODY") || in.wants("DESCRIPTION")) in.add(m.body);
    if (in.wants("CLASS")) in.add(m.class_);
    if (in.wants("CATEGORIES")) in.add_list(m.categories);
    if (in.wants("CREATED")) in.add_date(m.created, {});
    if (in.wants("LAST-MODIFIED")) in.add_date(m.last_modified, {});
    in.add_extras(m.extra);
}

constexpr std::array<std::string_view, 16> k_contact_properties = {
    "FN",    "N",    "NICKNAME", "TEL",        "EMAIL", "URL",   "ADR", "ORG",
    "TITLE", "ROLE", "BDAY",     "CATEGORIES", "NOTE",  "PHOTO", "UID", "REV"};
constexpr std::array<std::string_view, 23> k_calendar_properties = {
    "SUMMARY",          "DESCRIPTION", "LOCATION",      "UID",     "STATUS",     "CLASS",
    "TRANSP",           "DURATION",    "DTSTART",       "DTEND",   "DUE",        "COMPLETED",
    "RECURRENCE-ID",    "CREATED",     "LAST-MODIFIED", "DTSTAMP", "CATEGORIES", "PRIORITY",
    "PERCENT-COMPLETE", "SEQUENCE",    "RRULE",         "EXDATE",  "RDATE"};
constexpr std::array<std::string_view, 7> k_memo_properties = {"SUMMARY", "BODY",    "DESCRIPTION",  "CATEGORIES",
                                                               "CLASS",   "CREATED", "LAST-MODIFIED"};
constexpr std::array<std::string_view, 6> k_keywords = {"SINCE", "BEFORE", "LIMIT", "MAXCOUNT", "MAXSIZE", "NOATT"};

}  // namespace

std::span<const std::string_view> filterable_properties(item_kind kind) {
    if (kind == item_kind::contact) return k_contact_properties;
    if (kind == item_kind::memo) return k_memo_properties;
    return k_calendar_properties;
}

std::span<const std::string_view> filter_keywords() { return k_keywords; }

value_kind kind_of_property(std::string_view name) {
    static constexpr std::array<std::string_view, 11> k_dates = {
        "DTSTART",       "DTEND",   "DUE", "COMPLETED", "RECURRENCE-ID", "CREATED",
        "LAST-MODIFIED", "DTSTAMP", "REV", "BDAY",      "EXDATE"};
    static constexpr std::array<std::string_view, 3> k_numbers = {"PRIORITY", "PERCENT-COMPLETE", "SEQUENCE"};
    if (std::find(k_dates.begin(), k_dates.end(), name) != k_dates.end()) return value_kind::date;
    if (std::find(k_numbers.begin(), k_numbers.end(), name) != k_numbers.end()) return value_kind::number;
    return value_kind::text;
}

std::optional<int> sub_field_index(std::string_view property, std::string_view sub_field) {
    int number = 0;
    auto [end, ec] = std::from_chars(sub_field.data(), sub_field.data() + sub_field.size(), number);
    if (ec == std::errc() && end == sub_field.data() + sub_field.size())
        return number >= 1 && number <= k_max_sub_field ? std::optional(number - 1) : std::nullopt;
    auto find = [&](const auto& names) -> std::optional<int> {
        auto it = std::find(names.begin(), names.end(), sub_field);
        return it == names.end() ? std::nullopt : std::optional(static_cast<int>(it - names.begin()));
    };
    if (property == "N") return find(k_name_parts);
    if (property == "ADR") return sub_field == "POSTALCODE" ? std::optional(5) : find(k_address_parts);
    if (property == "ORG") return find(std::array<std::string_view, 2>{"NAME", "UNIT"});
    return std::nullopt;
}

std::string canonical_property_name(std::string_view name) {
    std::string upper = common::to_upper(name);
    if (upper == "MODIFIED" || upper == "REV") return "LAST-MODIFIED";
    return upper;
}

std::vector<filter_value> values_of(const item& value, const property_ref& ref) {
    std::vector<filter_value> out;
    collector in{ref, out};
    if (!ref.sub_field.empty() && !in.sub) return out;
    if (const auto* c = std::get_if<contact>(&value)) {
        contact_values(*c, in);
    } else if (const auto* cal = std::get_if<calendar>(&value)) {
        for (const auto& component : cal->components) component_values(component, cal->timezones, in);
        in.add_extras(cal->extra);
    } else {
        memo_values(std::get<memo>(value), in);
    }
    return out;
}

}  // namespace syncml::matching
