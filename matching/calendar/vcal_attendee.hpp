#pragma once
// ATTENDEE between vCalendar 1.0 and iCalendar 2.0 (vcal_attendee.cpp). The model keeps the 2.0 form; what 1.0
// cannot say travels as X-SYNCML- escapes so that both round trips are exact.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "matching/content/content_line.hpp"

namespace syncml::matching {

// Parameters: 1.0 STATUS/RSVP/EXPECT <-> 2.0 PARTSTAT/RSVP/ROLE.
void attendee_params_from_vcal(std::vector<param>& params);
std::vector<param> attendee_params_to_vcal(const std::vector<param>& params);

// `Name <address>` (the name optionally in double quotes) or `<address>`: how 1.0 peers state a common name.
struct mailbox {
    std::string name;
    std::string address;
};
std::optional<mailbox> parse_mailbox(std::string_view text);
std::string format_mailbox(const mailbox& m);

// A 1.0 ATTENDEE line into the model's 2.0 form: parameters mapped, `Name <a@b>` becomes CN=Name and mailto:a@b
// (a bare a@b just mailto:a@b),
// and the one with ROLE=ORGANIZER becomes the ORGANIZER.
void attendee_from_vcal(content_line& line);
// The 1.0 line for a model ATTENDEE or ORGANIZER: CN folded into the value as `Name <a@b>`, which is what phones
// show. Reading the result with attendee_from_vcal gives `p` back; when no 1.0 form does, the result is the
// X-SYNCML-ICAL- hint of `p`.
property attendee_to_vcal(const property& p);

}  // namespace syncml::matching
