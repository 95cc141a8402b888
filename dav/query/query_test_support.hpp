#pragma once
// Test support of dav/query: filters written as XML, calendar objects as text.

#include <gtest/gtest.h>

#include <string>

#include "common/text/xml_tree.hpp"
#include "dav/query/query_filter.hpp"

namespace syncml::dav::query::testing {

inline common::xml_element xml(const std::string& text) {
    auto parsed = common::parse_xml(text, {});
    EXPECT_TRUE(parsed.root) << parsed.error << "\n" << text;
    return parsed.root ? *parsed.root : common::xml_element{};
}

// A CALDAV:filter holding `inner` inside the VCALENDAR comp-filter.
inline std::string calendar_filter_xml(const std::string& inner) {
    return "<C:filter xmlns:C=\"urn:ietf:params:xml:ns:caldav\"><C:comp-filter name=\"VCALENDAR\">" + inner +
           "</C:comp-filter></C:filter>";
}

inline calendar_filter calendar_filter_of(const std::string& inner) {
    const auto element = xml(calendar_filter_xml(inner));
    auto parsed = parse_calendar_filter(&element);
    EXPECT_FALSE(parsed.error) << (parsed.error ? parsed.error->detail : "") << "\n" << inner;
    return parsed.filter.value_or(calendar_filter{});
}

inline std::string vcalendar(const std::string& inner) {
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + inner + "END:VCALENDAR\r\n";
}

// A VEVENT with `lines` (CRLF-terminated content lines) after its UID and DTSTAMP.
inline std::string vevent(const std::string& uid, const std::string& lines) {
    return "BEGIN:VEVENT\r\nUID:" + uid + "\r\nDTSTAMP:20250101T000000Z\r\n" + lines + "END:VEVENT\r\n";
}

inline std::string vtodo(const std::string& uid, const std::string& lines) {
    return "BEGIN:VTODO\r\nUID:" + uid + "\r\nDTSTAMP:20250101T000000Z\r\n" + lines + "END:VTODO\r\n";
}

// A comp-filter VEVENT (or `component`) with a time-range.
inline std::string range_xml(const std::string& start, const std::string& end) {
    std::string out = "<C:time-range";
    if (!start.empty()) out += " start=\"" + start + "\"";
    if (!end.empty()) out += " end=\"" + end + "\"";
    return out + "/>";
}

inline std::string comp_xml(const std::string& component, const std::string& inner) {
    return "<C:comp-filter name=\"" + component + "\">" + inner + "</C:comp-filter>";
}

}  // namespace syncml::dav::query::testing
