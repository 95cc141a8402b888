// vCalendar 1.0 alarms. The vCalendar 1.0 spec gives AALARM a TYPE (PCM, WAVE, AIFF) and a VALUE (INLINE, URL,
// CONTENT-ID) for its audio content, which is what a VALARM's ATTACH states with FMTTYPE and VALUE; MALARM's
// address and note are the ATTENDEE and the SUMMARY/DESCRIPTION of an EMAIL alarm.
#include "matching/calendar/vcal_alarm.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "common/text/ascii_case.hpp"
#include "matching/calendar/calendar_codec.hpp"
#include "matching/calendar/calendar_fields.hpp"
#include "matching/calendar/calendar_values.hpp"
#include "matching/calendar/vcal_attendee.hpp"
#include "matching/calendar/vcal_writer.hpp"

namespace syncml::matching {

namespace {

constexpr std::array<std::pair<std::string_view, std::string_view>, 3> k_audio_types = {
    {{"WAVE", "audio/x-wav"}, {"PCM", "audio/basic"}, {"AIFF", "audio/x-aiff"}}};
constexpr std::string_view k_mailto = "mailto:";
constexpr std::string_view k_cid = "cid:";
// An EMAIL alarm's subject and body share MALARM's one note, separated the way a mail separates its header.
constexpr std::string_view k_subject_end = "\n\n";

std::string vcal_hint(std::string_view name) { return std::string(k_vcal_hint) + std::string(name); }

const property* find_extra(const std::vector<property>& extra, std::string_view name) {
    auto it = std::find_if(extra.begin(), extra.end(), [&](const property& p) { return p.name == name; });
    return it == extra.end() ? nullptr : &*it;
}

bool comparable(const date_time& a, const date_time& b) {
    if (a.utc || b.utc) return a.utc && b.utc && !b.date_only;
    return a.tzid == b.tzid || b.date_only;
}

// The single value of the first parameter `name`; empty when absent or not single.
std::string single_value(const std::vector<param>& params, std::string_view name) {
    const param* p = find_param(params, name);
    return p != nullptr && p->values.size() == 1 ? p->values[0] : std::string();
}

void erase_first(std::vector<param>& params, std::string_view name) {
    auto it = std::find_if(params.begin(), params.end(), [&](const param& p) { return p.name == name; });
    if (it != params.end()) params.erase(it);
}

// AALARM/PALARM content: a plain value is the VALARM's ATTACH; TYPE, VALUE and ENCODING become ATTACH's
// FMTTYPE and VALUE (ENCODING) parameters. Anything else stays in `rest` for X-SYNCML-VCAL-PARAMS.
void read_attachment(alarm& a, std::vector<param>& rest, std::string content, bool audio) {
    if (content.empty()) return;
    std::vector<param> attach;
    const std::string type = single_value(rest, "TYPE");
    auto mime = std::find_if(k_audio_types.begin(), k_audio_types.end(),
                             [&](const auto& t) { return common::iequals(t.first, type); });
    if (audio && mime != k_audio_types.end()) {
        attach.push_back(param{"FMTTYPE", {std::string(mime->second)}});
        erase_first(rest, "TYPE");
    }
    const std::string value = common::to_upper(single_value(rest, "VALUE"));
    const std::string encoding = common::to_upper(single_value(rest, "ENCODING"));
    bool cid = value == "CONTENT-ID" && content.size() > 2 && content.front() == '<' && content.back() == '>';
    if (value == "URL" || cid) {
        attach.push_back(param{"VALUE", {"URI"}});
        if (cid) content = std::string(k_cid) + content.substr(1, content.size() - 2);
        erase_first(rest, "VALUE");
    } else if (encoding == "BASE64" && (value.empty() || value == "INLINE")) {
        attach.push_back(param{"ENCODING", {"BASE64"}});
        attach.push_back(param{"VALUE", {"BINARY"}});
        erase_first(rest, "ENCODING");
        if (!value.empty()) erase_first(rest, "VALUE");
    }
    if (attach.empty())
        a.attach = std::move(content);
    else
        a.extra.push_back(property{{}, "ATTACH", std::move(attach), std::move(content)});
}

// MALARM: the address is the EMAIL alarm's ATTENDEE (`Name <a@b>` gives its CN), the note its subject and body.
void read_mail(alarm& a, const std::string& address, const std::string& note) {
    if (auto m = parse_mailbox(address)) {
        std::vector<param> params;
        if (!m->name.empty()) params.push_back(param{"CN", {m->name}});
        a.extra.push_back(property{{}, "ATTENDEE", std::move(params), std::string(k_mailto) + m->address});
    } else if (!address.empty()) {
        a.extra.push_back(property{{}, "ATTENDEE", {}, std::string(k_mailto) + address});
    }
    auto end = note.find(k_subject_end);
    if (end == std::string::npos || end == 0) {
        a.description = note;
        return;
    }
    a.extra.push_back(property{{}, "SUMMARY", {}, escape_text(note.substr(0, end))});
    a.description = note.substr(end + k_subject_end.size());
}

void read_timing(alarm& a, const std::vector<std::string>& parts, const calendar_component& c) {
    auto run = parse_date_time(parts[0]);
    if (run && !run->utc && c.start && !c.start->utc) run->tzid = c.start->tzid;
    if (run && c.start && comparable(*run, *c.start)) {
        a.trigger_duration = format_duration(to_epoch_seconds(*run) - to_epoch_seconds(*c.start));
    } else if (run) {
        a.trigger_time = run;
    } else if (!parts[0].empty()) {
        a.extra.push_back(property{{}, vcal_hint("RUNTIME"), {}, escape_text(parts[0])});
    }
    if (auto snooze = parse_duration(parts[1]))
        a.duration = format_duration(*snooze);
    else if (!parts[1].empty())
        a.extra.push_back(property{{}, vcal_hint("SNOOZE"), {}, escape_text(parts[1])});
    a.repeat = std::atoi(parts[2].c_str());
    if (a.repeat < 0 || std::to_string(a.repeat) != parts[2]) {
        if (!parts[2].empty()) a.extra.push_back(property{{}, vcal_hint("REPEAT"), {}, escape_text(parts[2])});
        a.repeat = 0;
    }
}

std::string run_time(const alarm& a, const calendar_component& c) {
    std::optional<date_time> base = a.trigger_related_end && (c.end || c.due) ? (c.end ? c.end : c.due) : c.start;
    if (a.trigger_time) return format_date_time(*a.trigger_time);
    if (!a.trigger_duration.empty() && base) {
        date_time b =
            base->date_only ? date_time{base->year, base->month, base->day, 0, 0, 0, false, false, {}} : *base;
        auto when = from_epoch_seconds(to_epoch_seconds(b) + parse_duration(a.trigger_duration).value_or(0), b.utc, {});
        return format_date_time(when);
    }
    const property* runtime = find_extra(a.extra, vcal_hint("RUNTIME"));
    return runtime ? runtime->value : std::string();
}

// ATTACH back to AALARM/PALARM content and parameters (the inverse of read_attachment).
std::string write_attachment(const alarm& a, std::vector<param>& params, bool audio) {
    if (!a.attach.empty()) return escape_text(a.attach, false);
    const property* attach = find_extra(a.extra, "ATTACH");
    if (attach == nullptr) return {};
    std::string content = attach->value;
    for (const auto& p : attach->params) {
        std::string v = p.values.size() == 1 ? p.values[0] : std::string();
        auto type = std::find_if(k_audio_types.begin(), k_audio_types.end(),
                                 [&](const auto& t) { return common::iequals(t.second, v); });
        if (p.name == "FMTTYPE" && audio && type != k_audio_types.end()) {
            params.push_back(param{"TYPE", {std::string(type->first)}});
        } else if (p.name == "VALUE" && common::iequals(v, "URI") &&
                   common::iequals(content.substr(0, k_cid.size()), k_cid)) {
            params.push_back(param{"VALUE", {"CONTENT-ID"}});
            content = "<" + content.substr(k_cid.size()) + ">";
        } else if (p.name == "VALUE" && common::iequals(v, "URI")) {
            params.push_back(param{"VALUE", {"URL"}});
        } else if (p.name == "ENCODING" && common::iequals(v, "BASE64")) {
            params.push_back(param{"ENCODING", {"BASE64"}});
        }
    }
    return escape_text(content, false);
}

// MALARM address and note (the inverse of read_mail).
std::pair<std::string, std::string> write_mail(const alarm& a) {
    std::string address;
    if (const property* attendee = find_extra(a.extra, "ATTENDEE"); attendee && attendee->value.starts_with(k_mailto)) {
        mailbox m{{}, attendee->value.substr(k_mailto.size())};
        if (attendee->params.size() == 1 && attendee->params[0].name == "CN" && attendee->params[0].values.size() == 1)
            m.name = attendee->params[0].values[0];
        address = m.name.empty() ? m.address : format_mailbox(m);
    }
    const property* summary = find_extra(a.extra, "SUMMARY");
    std::string note = a.description;
    if (summary && !summary->value.empty())
        note = unescape_text(summary->value) + std::string(k_subject_end) + a.description;
    return {escape_text(address, false), escape_text(note, false)};
}

std::optional<alarm> parse_valarm(const std::string& escaped) {
    std::string text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\n" + unescape_text(escaped) +
                       "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    auto parsed = parse_calendars(text, calendar_version::ical20);
    if (!parsed || parsed->size() != 1 || (*parsed)[0].components.size() != 1) return std::nullopt;
    const auto& alarms = (*parsed)[0].components[0].alarms;
    if (alarms.size() != 1) return std::nullopt;
    return alarms[0];
}

// Before alarms were hinted one by one, every line came first and then a hint for each of them, in order.
bool all_hints_after_lines(const std::vector<content_line>& lines) {
    std::size_t alarms = 0, hints = 0;
    for (const auto& line : lines) {
        bool alarm_line = is_vcal_alarm_property(line.name);
        if (alarm_line && hints > 0) return false;
        ++(alarm_line ? alarms : hints);
    }
    return hints == alarms;
}

}  // namespace

bool is_vcal_alarm_property(std::string_view name) {
    return name == "AALARM" || name == "DALARM" || name == "PALARM" || name == "MALARM";
}

alarm read_vcal_alarm(const content_line& line, const calendar_component& c) {
    alarm a;
    auto parts = split_escaped(line.value, ';');
    for (auto& p : parts) p = unescape_text(p);
    parts.resize(std::max<std::size_t>(parts.size(), 5));
    const std::string& n = line.name;
    a.action = n == "AALARM" ? "AUDIO" : n == "DALARM" ? "DISPLAY" : n == "PALARM" ? "PROCEDURE" : "EMAIL";
    read_timing(a, parts, c);
    std::vector<param> rest = line.params;
    if (n == "DALARM")
        a.description = parts[3];
    else if (n == "MALARM")
        read_mail(a, parts[3], parts[4]);
    else
        read_attachment(a, rest, parts[3], n == "AALARM");
    if (!rest.empty()) a.extra.push_back(property{{}, vcal_hint("PARAMS"), std::move(rest), {}});
    return a;
}

property vcal_alarm_line(const alarm& a, const calendar_component& c) {
    std::vector<std::string> parts(4);
    parts[0] = run_time(a, c);
    const property* snooze = find_extra(a.extra, vcal_hint("SNOOZE"));
    parts[1] = !a.duration.empty() ? a.duration : snooze ? snooze->value : std::string();
    const property* repeat = find_extra(a.extra, vcal_hint("REPEAT"));
    parts[2] = repeat && a.repeat == 0 ? repeat->value : std::to_string(a.repeat);
    property line;
    line.name = a.action == "AUDIO"       ? "AALARM"
                : a.action == "PROCEDURE" ? "PALARM"
                : a.action == "EMAIL"     ? "MALARM"
                                          : "DALARM";
    if (line.name == "DALARM") {
        parts[3] = escape_text(a.description, false);
    } else if (line.name == "MALARM") {
        auto [address, note] = write_mail(a);
        parts[3] = std::move(address);
        parts.push_back(std::move(note));
    } else {
        parts[3] = write_attachment(a, line.params, line.name == "AALARM");
    }
    if (const property* params = find_extra(a.extra, vcal_hint("PARAMS")))
        line.params.insert(line.params.end(), params->params.begin(), params->params.end());
    for (std::size_t i = 0; i < parts.size(); ++i) line.value += (i > 0 ? ";" : "") + parts[i];
    return line;
}

void write_vcal_alarm_line(content_writer& out, const property& line) {
    if (find_param(line.params, "ENCODING") != nullptr)
        out.write_base64(line.group, line.name, line.params, line.value);
    else
        out.write(line.group, line.name, line.params, line.value);
}

std::optional<alarm> reread_vcal_alarm(const alarm& a, const calendar_component& c) {
    content_writer out(line_syntax::legacy);
    write_vcal_alarm_line(out, vcal_alarm_line(a, c));
    auto lines = read_content_lines(out.take());
    if (!lines || lines->size() != 1) return std::nullopt;
    content_line& line = lines->front();
    if (find_param(line.params, "ENCODING") == nullptr) line.value = legacy_to_modern_escapes(line.value);
    return read_vcal_alarm(line, c);
}

std::vector<alarm> read_vcal_alarms(const std::vector<content_line>& lines, const calendar_component& c) {
    const bool earlier_form = all_hints_after_lines(lines);
    std::vector<alarm> out;
    std::size_t hints = 0;
    bool after_line = false;
    for (const auto& line : lines) {
        if (is_vcal_alarm_property(line.name)) {
            out.push_back(read_vcal_alarm(line, c));
            after_line = true;
            continue;
        }
        const std::size_t target = earlier_form ? hints++ : out.size() - 1;
        const bool placed = earlier_form || after_line;
        after_line = false;
        auto hinted = parse_valarm(line.value);
        if (!placed || !hinted || target >= out.size()) continue;
        if (reread_vcal_alarm(*hinted, c) == out[target]) out[target] = std::move(*hinted);
    }
    return out;
}

}  // namespace syncml::matching
