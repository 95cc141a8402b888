#pragma once
// The zone a query reads floating times and DATE values in (RFC 4791 9.7 with 7.3: the CALDAV:timezone of a
// calendar-query, else UTC). libical's types stay out of this header.

#include <memory>
#include <optional>
#include <string_view>

struct _icaltimezone;

namespace syncml::dav::query {

class floating_zone {
  public:
    floating_zone() = default;  // UTC
    // The first VTIMEZONE of an iCalendar object (CALDAV:timezone's text); nullopt when it holds none; a TZID the
    // system database knows stands for itself when the VTIMEZONE has no rules.
    static std::optional<floating_zone> from_vtimezone(std::string_view text);

    _icaltimezone* zone() const { return zone_; }  // null: UTC

  private:
    std::shared_ptr<void> owner_;  // the calendar the zone lives in
    _icaltimezone* zone_ = nullptr;
};

}  // namespace syncml::dav::query
