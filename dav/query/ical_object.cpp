#include "dav/query/ical_object.hpp"

#include "common/text/ascii_case.hpp"

namespace syncml::dav::query::ical {
namespace {

// A string libical allocated for the caller (the *_r functions).
std::string take(char* text) {
    if (!text) return {};
    std::string out(text);
    icalmemory_free_buffer(text);
    return out;
}

std::string property_name(icalproperty* p) {
    const char* name = icalproperty_get_property_name(p);
    return name ? common::to_upper(name) : std::string();
}

}  // namespace

component_ptr parse(std::string_view text) {
    component_ptr root(icalparser_parse_string(std::string(text).c_str()));
    if (!root) return nullptr;
    if (icalcomponent_isa(root.get()) == ICAL_VCALENDAR_COMPONENT) return root;
    if (icalcomponent_isa(root.get()) != ICAL_XROOT_COMPONENT) return nullptr;
    // Text before or after the object: libical wraps what it read in an XROOT.
    icalcomponent* calendar = icalcomponent_get_first_component(root.get(), ICAL_VCALENDAR_COMPONENT);
    if (!calendar) return nullptr;
    icalcomponent_remove_component(root.get(), calendar);
    return component_ptr(calendar);
}

icaltimezone* zone_named(icalcomponent* calendar, const char* tzid) {
    if (!tzid || !*tzid) return nullptr;
    if (calendar) {
        if (auto* own = icalcomponent_get_timezone(calendar, tzid)) return own;
    }
    if (auto* system = icaltimezone_get_builtin_timezone(tzid)) return system;
    if (auto* prefixed = icaltimezone_get_builtin_timezone_from_tzid(tzid)) return prefixed;
    // Other prefixes of older clients ("/mozilla.org/20050126_1/Europe/Berlin"): the zone name is the path's tail.
    std::string_view rest(tzid);
    if (!rest.starts_with('/')) return nullptr;
    for (auto slash = rest.find('/', 1); slash != std::string_view::npos; slash = rest.find('/', slash + 1)) {
        if (auto* zone = icaltimezone_get_builtin_timezone(std::string(rest.substr(slash + 1)).c_str())) return zone;
    }
    return nullptr;
}

icaltimezone* clock::zone_of(icalproperty* p, icaltimetype value) const {
    if (icaltime_is_utc(value)) return nullptr;
    if (value.is_date) return floating_;
    if (icalparameter* tzid = p ? icalproperty_get_first_parameter(p, ICAL_TZID_PARAMETER) : nullptr) {
        if (auto* zone = zone_named(calendar_, icalparameter_get_tzid(tzid))) return zone;
    }
    return floating_;
}

std::int64_t clock::utc(icaltimetype value, icaltimezone* zone) const {
    value.zone = nullptr;
    if (value.is_date) {
        value.is_date = 0;
        value.hour = value.minute = value.second = 0;
    }
    return static_cast<std::int64_t>(icaltime_as_timet_with_zone(value, zone));
}

std::optional<std::int64_t> clock::utc_of(icalproperty* p) const {
    if (!p) return std::nullopt;
    icalvalue* v = icalproperty_get_value(p);
    if (!v) return std::nullopt;
    const auto kind = icalvalue_isa(v);
    if (kind != ICAL_DATETIME_VALUE && kind != ICAL_DATE_VALUE && kind != ICAL_DATETIMEDATE_VALUE) return std::nullopt;
    const icaltimetype t = icalvalue_get_datetime(v);
    if (icaltime_is_null_time(t) || !icaltime_is_valid_time(t)) return std::nullopt;
    return utc(t, zone_of(p, t));
}

std::vector<icalproperty*> properties_named(icalcomponent* c, std::string_view name) {
    std::vector<icalproperty*> out;
    for (icalproperty* p = icalcomponent_get_first_property(c, ICAL_ANY_PROPERTY); p;
         p = icalcomponent_get_next_property(c, ICAL_ANY_PROPERTY)) {
        if (property_name(p) == name) out.push_back(p);
    }
    return out;
}

std::string component_name(icalcomponent* c) {
    // libical 3.0 keeps no name of an X- component: those match no comp-filter.
    const char* name = icalcomponent_kind_to_string(icalcomponent_isa(c));
    return name ? common::to_upper(name) : std::string();
}

std::vector<icalcomponent*> children(icalcomponent* c, icalcomponent_kind kind) {
    std::vector<icalcomponent*> out;
    for (icalcomponent* sub = icalcomponent_get_first_component(c, kind); sub;
         sub = icalcomponent_get_next_component(c, kind)) {
        out.push_back(sub);
    }
    return out;
}

std::vector<icalcomponent*> components_named(icalcomponent* c, std::string_view name) {
    auto out = children(c);
    std::erase_if(out, [&](icalcomponent* sub) { return component_name(sub) != name; });
    return out;
}

std::string value_text(icalproperty* p) {
    icalvalue* v = icalproperty_get_value(p);
    if (!v) return {};
    if (icalvalue_isa(v) == ICAL_TEXT_VALUE) {
        const char* text = icalvalue_get_text(v);
        return text ? text : "";
    }
    return take(icalproperty_get_value_as_string_r(p));
}

std::vector<std::string> parameter_values(icalproperty* p, std::string_view name) {
    std::vector<std::string> out;
    for (icalparameter* param = icalproperty_get_first_parameter(p, ICAL_ANY_PARAMETER); param;
         param = icalproperty_get_next_parameter(p, ICAL_ANY_PARAMETER)) {
        // "NAME=value" or "NAME=\"value\"": one generic reading for IANA, X- and typed parameters alike.
        const auto text = take(icalparameter_as_ical_string_r(param));
        const auto equals = text.find('=');
        if (equals == std::string::npos || common::to_upper(text.substr(0, equals)) != name) continue;
        auto value = text.substr(equals + 1);
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
        out.push_back(std::move(value));
    }
    return out;
}

icaltimetype utc_time(std::int64_t seconds) {
    return icaltime_from_timet_with_zone(static_cast<time_t>(seconds), 0, icaltimezone_get_utc_timezone());
}

std::string text_of(icalcomponent* c) { return take(icalcomponent_as_ical_string_r(c)); }

}  // namespace syncml::dav::query::ical
