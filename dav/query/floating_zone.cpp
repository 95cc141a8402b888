#include "dav/query/floating_zone.hpp"

#include "dav/query/ical_object.hpp"

namespace syncml::dav::query {

std::optional<floating_zone> floating_zone::from_vtimezone(std::string_view text) {
    auto calendar = ical::parse(text);
    if (!calendar) return std::nullopt;
    icalcomponent* vtimezone = icalcomponent_get_first_component(calendar.get(), ICAL_VTIMEZONE_COMPONENT);
    if (!vtimezone) return std::nullopt;
    icalproperty* tzid = icalcomponent_get_first_property(vtimezone, ICAL_TZID_PROPERTY);
    if (!tzid) return std::nullopt;
    const char* name = icalproperty_get_tzid(tzid);
    floating_zone out;
    out.zone_ = ical::zone_named(calendar.get(), name);
    if (!out.zone_) return std::nullopt;
    auto* raw = calendar.release();
    out.owner_ = std::shared_ptr<void>(raw, [](void* c) { icalcomponent_free(static_cast<icalcomponent*>(c)); });
    return out;
}

}  // namespace syncml::dav::query
