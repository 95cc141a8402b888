#pragma once
// Typed model of the PIM items the server stores: contacts, calendar data (events, tasks, journals) and memos.
// Typed fields hold what matching and merging work on; everything else stays in `extra` in input order, with
// its parameters, so unknown and X- properties survive any round trip. Text values are UTF-8 and unescaped.

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/vocabulary/datastore_kind.hpp"

namespace syncml::matching {

// One enum for every module: persistence and dav take it too (common/vocabulary/datastore_kind.hpp).
using common::item_kind;

struct param {
    std::string name;  // upper case; empty for a bare vCard 2.1 value such as the HOME of TEL;HOME
    std::vector<std::string> values;
    bool operator==(const param&) const = default;
};

// One content line not covered by a typed field. `value` is the decoded text (QP and charset undone, folding
// removed) still in the iCalendar/vCard 3.0 escaped form, so structured values keep their separators.
struct property {
    std::string group;  // vCard group prefix ("item1"), empty otherwise
    std::string name;   // upper case
    std::vector<param> params;
    std::string value;
    bool operator==(const property&) const = default;
};

// ---- contacts ----

struct structured_name {
    std::string family, given, additional, prefix, suffix;
    bool operator==(const structured_name&) const = default;
};

// TEL, EMAIL, URL, IMPP: a value with its TYPE set (upper case, e.g. HOME, WORK, CELL, VOICE, INTERNET).
struct typed_value {
    std::vector<std::string> types;
    bool preferred = false;  // TYPE=PREF or PREF=1
    std::string value;
    std::vector<param> extra_params;  // parameters other than TYPE/PREF/CHARSET/ENCODING
    std::string group;
    bool operator==(const typed_value&) const = default;
};

struct address {
    std::vector<std::string> types;
    bool preferred = false;
    std::string po_box, extended, street, locality, region, postal_code, country;
    std::vector<param> extra_params;
    std::string group;
    bool operator==(const address&) const = default;
};

struct photo {
    std::string media_type;  // upper case subtype as vCard writes it: JPEG, PNG, GIF; empty when unknown
    std::string data;        // decoded bytes; empty when `uri` is used
    std::string uri;
    bool operator==(const photo&) const = default;
};

struct contact {
    std::string uid;
    std::string formatted_name;
    std::optional<structured_name> name;
    std::string nickname;
    std::vector<typed_value> phones;
    std::vector<typed_value> emails;
    std::vector<typed_value> urls;
    std::vector<address> addresses;
    std::vector<std::string> organization;  // organisation name then units
    std::string title;
    std::string role;
    std::string birthday;  // as sent: 1980-01-31, 19800131, --0131
    std::vector<std::string> categories;
    std::string note;
    std::optional<photo> picture;
    std::string revision;
    std::vector<property> extra;
    bool operator==(const contact&) const = default;
};

// ---- calendar ----

// A DATE or DATE-TIME. Floating when neither `utc` nor `tzid`.
struct date_time {
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    bool date_only = false;
    bool utc = false;
    std::string tzid;
    bool operator==(const date_time&) const = default;
};

enum class frequency { secondly, minutely, hourly, daily, weekly, monthly, yearly };

struct weekday_num {
    int ordinal = 0;  // 0 = every; +n / -n = nth / nth last
    int weekday = 0;  // 0 = SU ... 6 = SA
    bool operator==(const weekday_num&) const = default;
};

struct recurrence_rule {
    frequency freq = frequency::daily;
    int interval = 1;
    std::optional<int> count;
    std::optional<date_time> until;
    std::vector<weekday_num> by_day;
    std::vector<int> by_month_day, by_month, by_year_day, by_week_no, by_set_pos, by_hour, by_minute, by_second;
    int week_start = 1;  // MO
    bool week_start_set = false;
    bool operator==(const recurrence_rule&) const = default;
};

struct alarm {
    std::string action;            // AUDIO, DISPLAY, EMAIL, PROCEDURE
    std::string trigger_duration;  // RFC 5545 duration, e.g. -PT15M; empty when `trigger_time` is set
    bool trigger_related_end = false;
    std::optional<date_time> trigger_time;
    std::string duration;  // snooze interval
    int repeat = 0;
    std::string description;
    std::string attach;
    std::vector<property> extra;
    bool operator==(const alarm&) const = default;
};

struct tz_observance {
    bool daylight = false;
    date_time start;
    std::string offset_from, offset_to;  // +HHMM / -HHMM
    std::string name;
    std::optional<recurrence_rule> rule;
    std::vector<date_time> rdates;
    std::vector<property> extra;
    bool operator==(const tz_observance&) const = default;
};

struct timezone_def {
    std::string tzid;
    std::vector<tz_observance> observances;
    std::vector<property> extra;
    bool operator==(const timezone_def&) const = default;
};

// VEVENT, VTODO or VJOURNAL.
struct calendar_component {
    item_kind kind = item_kind::event;
    std::string uid;
    std::string summary;
    std::string description;
    std::string location;
    std::optional<date_time> start, end, due, completed, recurrence_id;
    std::string duration;
    int percent_complete = -1;  // -1: absent
    std::vector<recurrence_rule> rrules;
    std::vector<date_time> exdates, rdates;
    std::vector<alarm> alarms;
    int priority = 0;    // RFC 5545 scale, 0 = undefined
    std::string status;  // RFC 5545 value set: TENTATIVE, CONFIRMED, CANCELLED, NEEDS-ACTION, COMPLETED, ...
    std::string class_;  // PUBLIC, PRIVATE, CONFIDENTIAL
    std::string transparency;
    std::vector<std::string> categories;
    int sequence = -1;
    std::optional<date_time> created, last_modified, stamp;
    std::vector<property> extra;
    bool operator==(const calendar_component&) const = default;
};

struct calendar {
    std::string prodid;
    std::string method;
    std::vector<timezone_def> timezones;
    std::vector<calendar_component> components;
    std::vector<property> extra;
    bool operator==(const calendar&) const = default;
};

// ---- memos (text/plain, vNote 1.1; VJOURNAL memos are calendar_components) ----

struct memo {
    std::string summary;  // first line of a text/plain memo
    std::string body;     // the whole text, summary line included
    std::vector<std::string> categories;
    std::string class_;
    std::optional<date_time> created, last_modified;
    std::vector<property> extra;
    bool operator==(const memo&) const = default;
};

using item = std::variant<contact, calendar, memo>;

// The kind of the first component for calendars; contact or memo otherwise.
item_kind kind_of(const item& value);

}  // namespace syncml::matching
