#include "src/admin/transfer/pim_text.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "common/text/ascii_case.hpp"
#include "matching/content/text_lines.hpp"

namespace syncml::server {
namespace {

constexpr const char* k_crlf = "\r\n";

// Folded continuation lines stay lines of their own: a file splits into items without a byte of them changed.
constexpr matching::text_line_options k_physical_lines{.unfold = false, .keep_empty = false};

// "VEVENT" for "BEGIN:VEVENT" when `line` begins a component named so (any case); empty otherwise.
std::string component_of(const std::string& line, const char* marker) {
    const auto u = common::to_upper(line);
    return u.starts_with(marker) ? u.substr(std::string(marker).size()) : std::string();
}

// The value of a top-level property of a component block (UID, TZID), empty when it has none.
std::string property_of(const std::vector<std::string>& block, const std::string& name) {
    int depth = 0;
    for (const auto& line : block) {
        if (!component_of(line, "BEGIN:").empty()) ++depth;
        if (!component_of(line, "END:").empty()) --depth;
        const auto u = common::to_upper(line);
        if (depth == 1 && (u.starts_with(name + ":") || u.starts_with(name + ";"))) {
            return line.substr(line.find(':') + 1);
        }
    }
    return {};
}

// The components inside the VCALENDAR objects of `text` (or at its top level), each as its lines.
std::vector<std::vector<std::string>> components_of(const std::string& text) {
    std::vector<std::vector<std::string>> blocks;
    std::vector<std::string> current;
    int depth = 0;  // inside the current component
    for (const auto& line : matching::text_lines(text, k_physical_lines)) {
        const auto begins = component_of(line, "BEGIN:");
        const auto ends = component_of(line, "END:");
        if (depth == 0 && (begins == "VCALENDAR" || ends == "VCALENDAR")) continue;
        if (depth == 0 && begins.empty()) continue;  // VERSION, PRODID, ... of the calendar object
        current.push_back(line);
        if (!begins.empty()) ++depth;
        if (!ends.empty() && --depth == 0) blocks.push_back(std::exchange(current, {}));
    }
    return blocks;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& line : lines) out += line + k_crlf;
    return out;
}

std::string calendar_object(const std::string& body) {
    return std::string("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//syncml-server//user export//EN\r\n") + body +
           "END:VCALENDAR\r\n";
}

}  // namespace

std::vector<std::string> split_vcards(const std::string& text) {
    std::vector<std::string> cards;
    std::vector<std::string> current;
    int depth = 0;
    for (const auto& line : matching::text_lines(text, k_physical_lines)) {
        const bool begins = component_of(line, "BEGIN:") == "VCARD";
        if (depth == 0 && !begins) continue;
        current.push_back(line);
        if (begins) ++depth;
        if (component_of(line, "END:") == "VCARD" && --depth == 0) cards.push_back(joined(std::exchange(current, {})));
    }
    return cards;
}

std::vector<std::string> split_icalendar(const std::string& text) {
    std::map<std::string, std::string> zones;                 // TZID -> VTIMEZONE
    std::vector<std::pair<std::string, std::string>> groups;  // UID -> its components, in the file's order
    for (const auto& block : components_of(text)) {
        if (component_of(block.front(), "BEGIN:") == "VTIMEZONE") {
            zones.emplace(property_of(block, "TZID"), joined(block));
            continue;
        }
        const auto uid = property_of(block, "UID");
        auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == uid; });
        if (uid.empty() || group == groups.end()) {
            groups.emplace_back(uid, joined(block));
        } else {
            group->second += joined(block);
        }
    }
    std::vector<std::string> items;
    for (const auto& [uid, body] : groups) {
        std::string named_zones;
        for (const auto& [tzid, zone] : zones) {
            const bool named = body.find("TZID=" + tzid) != std::string::npos ||
                               body.find("TZID=\"" + tzid + "\"") != std::string::npos;
            if (!tzid.empty() && named) named_zones += zone;
        }
        items.push_back(calendar_object(named_zones + body));
    }
    return items;
}

std::string join_icalendar(const std::vector<std::string>& items) {
    std::map<std::string, std::string> zones;
    std::string body;
    for (const auto& item : items) {
        for (const auto& block : components_of(item)) {
            if (component_of(block.front(), "BEGIN:") == "VTIMEZONE") {
                zones.emplace(property_of(block, "TZID"), joined(block));
            } else {
                body += joined(block);
            }
        }
    }
    std::string named_zones;
    for (const auto& [tzid, zone] : zones) named_zones += zone;
    return calendar_object(named_zones + body);
}

}  // namespace syncml::server
