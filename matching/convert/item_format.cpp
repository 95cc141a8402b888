#include "matching/convert/item_format.hpp"

#include <array>

#include "common/text/ascii_case.hpp"
#include "common/text/trim.hpp"
#include "matching/calendar/calendar_codec.hpp"
#include "matching/content/content_line.hpp"
#include "matching/memo/memo_codec.hpp"
#include "matching/sif/sif_codec.hpp"
#include "matching/vcard/vcard_codec.hpp"

namespace syncml::matching {

namespace {

using common::k_blanks, common::k_blanks_and_cr;

struct dialect_info {
    item_dialect dialect;
    std::string_view name, mime, version;
};

constexpr std::array<dialect_info, 11> k_dialects = {{
    {item_dialect::vcard21, "vcard21", "text/x-vcard", "2.1"},
    {item_dialect::vcard30, "vcard30", "text/vcard", "3.0"},
    {item_dialect::vcard40, "vcard40", "text/vcard", "4.0"},
    {item_dialect::vcal10, "vcal10", "text/x-vcalendar", "1.0"},
    {item_dialect::ical20, "ical20", "text/calendar", "2.0"},
    {item_dialect::plain_text, "text", "text/plain", ""},
    {item_dialect::vnote11, "vnote11", "text/x-vnote", "1.1"},
    {item_dialect::sifc, "sifc", "text/x-s4j-sifc", "1.0"},
    {item_dialect::sife, "sife", "text/x-s4j-sife", "1.0"},
    {item_dialect::sift, "sift", "text/x-s4j-sift", "1.0"},
    {item_dialect::sifn, "sifn", "text/x-s4j-sifn", "1.0"},
}};

const dialect_info& info(item_dialect d) { return k_dialects[static_cast<std::size_t>(d)]; }

enum class family { contact, calendar, memo };

family family_of(item_dialect d) {
    switch (d) {
        case item_dialect::vcard21:
        case item_dialect::vcard30:
        case item_dialect::vcard40:
        case item_dialect::sifc:
            return family::contact;
        case item_dialect::vcal10:
        case item_dialect::ical20:
        case item_dialect::sife:
        case item_dialect::sift:
            return family::calendar;
        default:
            return family::memo;
    }
}

// The value of the first "NAME:" line (case-insensitive), searching at most the first 64 KB.
std::optional<std::string> first_value(std::string_view data, std::string_view name) {
    std::size_t pos = 0;
    while (pos < data.size() && pos < 65536) {
        std::size_t end = data.find_first_of("\r\n", pos);
        std::string_view line = data.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
        line = common::trim(line, k_blanks, k_blanks_and_cr);
        if (line.size() > name.size() && common::istarts_with(line, name) && line[name.size()] == ':') {
            return common::to_upper(common::trim(line.substr(name.size() + 1), k_blanks, k_blanks_and_cr));
        }
        if (end == std::string_view::npos) break;
        pos = end + 1;
    }
    return std::nullopt;
}

constexpr std::array<std::pair<item_dialect, item_kind>, 4> k_sif_documents{{
    {item_dialect::sifc, item_kind::contact},
    {item_dialect::sife, item_kind::event},
    {item_dialect::sift, item_kind::task},
    {item_dialect::sifn, item_kind::memo},
}};

// The document a SIF dialect stands for.
std::optional<item_kind> sif_kind(item_dialect d) {
    for (auto [dialect, kind] : k_sif_documents) {
        if (dialect == d) return kind;
    }
    return std::nullopt;
}

item_dialect sif_dialect(item_kind kind) {
    for (auto [dialect, k] : k_sif_documents) {
        if (k == kind) return dialect;
    }
    return item_dialect::sifn;
}

result<item> parse_contact(std::string_view data, item_dialect dialect, const parse_limits& limits) {
    auto fallback = dialect == item_dialect::vcard21 ? vcard_version::v21 : vcard_version::v30;
    auto cards = parse_vcards(data, fallback, limits);
    if (!cards) return cards.error();
    return item{std::move(cards->front())};
}

result<item> parse_calendar(std::string_view data, item_dialect dialect, const parse_limits& limits) {
    auto fallback = dialect == item_dialect::vcal10 ? calendar_version::vcal10 : calendar_version::ical20;
    auto cals = parse_calendars(data, fallback, limits);
    if (!cals) return cals.error();
    if (cals->front().components.empty()) {
        return item_error{item_errc::malformed, "calendar has no VEVENT, VTODO or VJOURNAL", 1};
    }
    return item{std::move(cals->front())};
}

result<item> parse_memo(std::string_view data, item_dialect dialect, const parse_limits& limits) {
    if (dialect == item_dialect::vnote11) {
        auto note = parse_vnote(data, limits);
        if (!note) return note.error();
        return item{std::move(*note)};
    }
    return item{parse_plain_memo(data)};
}

item_error unsupported(const item& value, item_dialect dialect) {
    static constexpr std::array<std::string_view, 4> k_kinds = {"a contact", "an event", "a task", "a memo"};
    return item_error{item_errc::unsupported,
                      std::string(k_kinds[static_cast<std::size_t>(kind_of(value))]) + " cannot be written as " +
                          std::string(info(dialect).name),
                      0};
}

}  // namespace

std::string item_error::to_string() const {
    return line > 0 ? "line " + std::to_string(line) + ": " + message : message;
}

item_kind kind_of(const item& value) {
    if (std::holds_alternative<contact>(value)) return item_kind::contact;
    if (std::holds_alternative<memo>(value)) return item_kind::memo;
    const auto& cal = std::get<calendar>(value);
    return cal.components.empty() ? item_kind::event : cal.components.front().kind;
}

std::optional<item_dialect> dialect_from_mime(std::string_view mime_type, std::string_view version) {
    std::string mime =
        common::to_upper(common::trim(mime_type.substr(0, mime_type.find(';')), k_blanks, k_blanks_and_cr));
    version = common::trim(version, k_blanks, k_blanks_and_cr);
    if (mime == "TEXT/X-VCARD" || mime == "TEXT/VCARD" || mime == "TEXT/DIRECTORY") {
        if (version == "2.1") return item_dialect::vcard21;
        if (version == "3.0") return item_dialect::vcard30;
        if (version == "4.0") return item_dialect::vcard40;
        return mime == "TEXT/X-VCARD" ? item_dialect::vcard21 : item_dialect::vcard30;
    }
    if (mime == "TEXT/X-VCALENDAR" || mime == "TEXT/CALENDAR") {
        if (version == "1.0") return item_dialect::vcal10;
        if (version == "2.0") return item_dialect::ical20;
        return mime == "TEXT/X-VCALENDAR" ? item_dialect::vcal10 : item_dialect::ical20;
    }
    if (mime == "TEXT/PLAIN") return item_dialect::plain_text;
    if (mime == "TEXT/X-VNOTE") return item_dialect::vnote11;
    if (mime == "TEXT/X-S4J-SIFC") return item_dialect::sifc;
    if (mime == "TEXT/X-S4J-SIFE") return item_dialect::sife;
    if (mime == "TEXT/X-S4J-SIFT") return item_dialect::sift;
    if (mime == "TEXT/X-S4J-SIFN") return item_dialect::sifn;
    return std::nullopt;
}

std::string_view mime_of(item_dialect dialect) { return info(dialect).mime; }
std::string_view version_of(item_dialect dialect) { return info(dialect).version; }
std::string_view name_of(item_dialect dialect) { return info(dialect).name; }

std::optional<item_dialect> dialect_from_name(std::string_view name) {
    for (const auto& d : k_dialects) {
        if (d.name == name) return d.dialect;
    }
    if (name == "plain" || name == "plain_text") return item_dialect::plain_text;
    if (name == "vnote") return item_dialect::vnote11;
    return std::nullopt;
}

std::optional<item_dialect> detect_dialect(std::string_view data) {
    if (data.starts_with("\xEF\xBB\xBF")) data.remove_prefix(3);
    if (auto kind = sniff_sif(data)) return sif_dialect(*kind);
    auto begin = first_value(data, "BEGIN");
    if (!begin) return item_dialect::plain_text;
    auto version = first_value(data, "VERSION").value_or("");
    if (*begin == "VCARD") {
        if (version == "3.0") return item_dialect::vcard30;
        if (version == "4.0") return item_dialect::vcard40;
        return item_dialect::vcard21;
    }
    if (*begin == "VCALENDAR" || *begin == "VEVENT" || *begin == "VTODO" || *begin == "VJOURNAL") {
        return version.starts_with("1.") || (version.empty() && *begin != "VCALENDAR") ? item_dialect::vcal10
                                                                                       : item_dialect::ical20;
    }
    if (*begin == "VNOTE") return item_dialect::vnote11;
    // Other components (VTIMEZONE, VFREEBUSY, X- components) only exist in iCalendar.
    return item_dialect::ical20;
}

result<item> parse_item(std::string_view data, item_dialect dialect, const parse_limits& limits) {
    // Devices mislabel items (vCard 3.0 sent as text/x-vcard, a vNote as text/plain): the data decides.
    auto detected = detect_dialect(data);
    if (!detected) return item_error{item_errc::unknown_format, "data is no vCard, vCalendar, iCalendar or vNote", 1};
    if (sif_kind(*detected)) return parse_sif(data, limits);
    if (*detected != item_dialect::plain_text && (sif_kind(dialect) || family_of(*detected) != family_of(dialect)))
        dialect = *detected;
    if (sif_kind(dialect)) return parse_sif(data, limits);
    if (dialect == item_dialect::plain_text && *detected == item_dialect::vnote11) dialect = *detected;
    switch (family_of(dialect)) {
        case family::contact:
            return parse_contact(data, dialect, limits);
        case family::calendar:
            return parse_calendar(data, dialect, limits);
        default:
            return parse_memo(data, dialect, limits);
    }
}

result<std::string> serialize_item(const item& value, item_dialect dialect) {
    if (auto kind = sif_kind(dialect)) return write_sif(value, *kind);
    family target = family_of(dialect);
    if (const auto* c = std::get_if<contact>(&value)) {
        if (target != family::contact) return unsupported(value, dialect);
        auto version = dialect == item_dialect::vcard21   ? vcard_version::v21
                       : dialect == item_dialect::vcard30 ? vcard_version::v30
                                                          : vcard_version::v40;
        return write_vcard(*c, version);
    }
    if (const auto* cal = std::get_if<calendar>(&value)) {
        if (target == family::calendar) {
            return write_calendar(
                *cal, dialect == item_dialect::vcal10 ? calendar_version::vcal10 : calendar_version::ical20);
        }
        auto m = target == family::memo ? journal_to_memo(*cal) : std::nullopt;
        if (!m) return unsupported(value, dialect);
        return serialize_item(item{std::move(*m)}, dialect);
    }
    const auto& m = std::get<memo>(value);
    if (dialect == item_dialect::plain_text) return write_plain_memo(m);
    if (dialect == item_dialect::vnote11) return write_vnote(m);
    if (target == family::calendar) return serialize_item(item{memo_to_journal(m)}, dialect);
    return unsupported(value, dialect);
}

result<std::string> convert_item(std::string_view data, item_dialect from, item_dialect to) {
    auto parsed = parse_item(data, from);
    if (!parsed) return parsed.error();
    return serialize_item(*parsed, to);
}

}  // namespace syncml::matching
