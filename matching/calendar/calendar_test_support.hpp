#pragma once
// Calendar helpers for the matching tests: one parsed calendar, whole-line checks on written text, a minimal
// event in either dialect around the lines a test is about.

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "matching/calendar/calendar_codec.hpp"

namespace syncml::matching::testing {

// The one calendar in `text`; anything else fails the test and gives an empty calendar.
inline calendar parse_one(const std::string& text, calendar_version version) {
    auto parsed = parse_calendars(text, version);
    EXPECT_TRUE(parsed && parsed->size() == 1) << text;
    return parsed && parsed->size() == 1 ? parsed->front() : calendar{};
}

// `line` is a whole content line of `text` (not its first: BEGIN:VCALENDAR always is).
inline bool has_line(const std::string& text, const std::string& line) {
    return text.find("\r\n" + line + "\r\n") != std::string::npos;
}

// An event from `start` to 23:59 of that day with `lines`, in calendar VERSION `version`.
inline std::string event_on(std::string_view version, std::string_view start, std::string_view lines) {
    return "BEGIN:VCALENDAR\r\nVERSION:" + std::string(version) + "\r\nBEGIN:VEVENT\r\nUID:r1\r\nSUMMARY:s\r\n" +
           "DTSTART:" + std::string(start) + "\r\nDTEND:" + std::string(start.substr(0, 9)) + "235900\r\n" +
           std::string(lines) + "END:VEVENT\r\nEND:VCALENDAR\r\n";
}

// A one-hour event with `lines`.
inline std::string ical_event(const std::string& lines) {
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:a\r\n"
           "DTSTAMP:20260101T000000Z\r\nDTSTART:20260601T090000Z\r\nDTEND:20260601T100000Z\r\nSUMMARY:m\r\n" +
           lines + "END:VEVENT\r\nEND:VCALENDAR\r\n";
}

inline std::string vcal_event(const std::string& lines) {
    return "BEGIN:VCALENDAR\r\nVERSION:1.0\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260601T090000Z\r\n"
           "DTEND:20260601T100000Z\r\nSUMMARY:m\r\n" +
           lines + "END:VEVENT\r\nEND:VCALENDAR\r\n";
}

}  // namespace syncml::matching::testing
