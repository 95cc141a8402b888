#pragma once
// A calendar object read with libical, for the queries of dav/query only (the rest of the server keeps libical's
// types out of its headers): its components, its times in UTC and the time zones they name.
// TZIDs are resolved from the object's own VTIMEZONE, else from the system time-zone database through libical's
// built-in zones (/usr/share/zoneinfo: "Europe/Berlin" needs no VTIMEZONE); floating times and DATE values, and
// zones found nowhere, are read in the query's floating zone (UTC unless the query names one).

#include <libical/ical.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace syncml::dav::query::ical {

struct component_free {
    void operator()(icalcomponent* c) const { icalcomponent_free(c); }
};
using component_ptr = std::unique_ptr<icalcomponent, component_free>;

// The VCALENDAR of `text`; null when it is no iCalendar object.
component_ptr parse(std::string_view text);

// The zone a TZID names: `calendar`'s VTIMEZONE, else the system database; null when neither knows it.
icaltimezone* zone_named(icalcomponent* calendar, const char* tzid);

// Times of one calendar object as seconds since 1970 UTC.
class clock {
  public:
    // `floating`: the zone of floating times (null: UTC).
    clock(icalcomponent* calendar, icaltimezone* floating) : calendar_(calendar), floating_(floating) {}

    // The zone `value` of property `p` is in (its TZID's; UTC; the floating zone for floating and DATE values).
    icaltimezone* zone_of(icalproperty* p, icaltimetype value) const;
    std::int64_t utc(icaltimetype value, icaltimezone* zone) const;
    // A DATE or DATE-TIME property's value in UTC; nullopt when `p` is null or holds no time.
    std::optional<std::int64_t> utc_of(icalproperty* p) const;
    icaltimezone* floating() const { return floating_; }

  private:
    icalcomponent* calendar_;
    icaltimezone* floating_;
};

// The subcomponents of `c`. libical walks a component's children with one iterator kept in the component: a walk
// inside another walk of the same parent ends the outer one, so every walk here copies the children first.
std::vector<icalcomponent*> children(icalcomponent* c, icalcomponent_kind kind = ICAL_ANY_COMPONENT);
// The properties of `c` named `name` (upper case; X- names too).
std::vector<icalproperty*> properties_named(icalcomponent* c, std::string_view name);
// The subcomponents of `c` named `name` (upper case).
std::vector<icalcomponent*> components_named(icalcomponent* c, std::string_view name);
// The name of a component, upper case ("VEVENT").
std::string component_name(icalcomponent* c);

// A property's value as text: TEXT values unescaped, others as iCalendar writes them.
std::string value_text(icalproperty* p);
// The values of parameter `name` (upper case) of `p`, unquoted; empty when it has none.
std::vector<std::string> parameter_values(icalproperty* p, std::string_view name);

// A UTC DATE-TIME value.
icaltimetype utc_time(std::int64_t seconds);

// The text of a component (or a whole calendar), as iCalendar with CRLF line ends.
std::string text_of(icalcomponent* c);

inline constexpr std::int64_t k_day = 86400;

}  // namespace syncml::dav::query::ical
