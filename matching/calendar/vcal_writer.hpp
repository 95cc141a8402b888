#pragma once
// Writing the calendar model as vCalendar 1.0 (see calendar_codec.hpp for the X-SYNCML- hint properties).

#include <string>

#include "matching/model/item.hpp"

namespace syncml::matching {

std::string write_vcal(const calendar& cal);
std::string write_vtimezone(const timezone_def& tz);
std::string write_valarm(const alarm& value);

}  // namespace syncml::matching
