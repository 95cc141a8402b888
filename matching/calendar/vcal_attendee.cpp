// ATTENDEE parameters between the vCalendar 1.0 and iCalendar 2.0 vocabularies. The model keeps 2.0 names;
// a 1.0 value with no 2.0 equivalent (ROLE=ORGANIZER, STATUS=SENT, ...) is kept as X-SYNCML-VCAL-<NAME> and a
// 2.0 one (PARTSTAT=IN-PROCESS, ROLE=CHAIR, ...) travels to 1.0 as X-SYNCML-ICAL-<NAME>, so that reading what
// the writer wrote gives the parameters back exactly. 1.0 has no CN and no mailto: URIs: phones write
// `Name <address>` or the bare address. Nor has it ORGANIZER: that is the attendee with ROLE=ORGANIZER (as the
// Synthesis engine and Symbian phones write it).
#include "matching/calendar/vcal_attendee.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "common/text/trim.hpp"
#include "matching/calendar/calendar_fields.hpp"

namespace syncml::matching {

namespace {

using pair_map = std::array<std::pair<std::string_view, std::string_view>, 6>;  // {2.0 value, 1.0 value}

constexpr pair_map k_partstat = {{{"NEEDS-ACTION", "NEEDS ACTION"},
                                  {"ACCEPTED", "ACCEPTED"},
                                  {"DECLINED", "DECLINED"},
                                  {"TENTATIVE", "TENTATIVE"},
                                  {"DELEGATED", "DELEGATED"},
                                  {"COMPLETED", "COMPLETED"}}};
constexpr pair_map k_rsvp = {{{"TRUE", "YES"}, {"FALSE", "NO"}, {}, {}, {}, {}}};
// 1.0 EXPECT says how much the attendee is needed, which is what the 2.0 ROLE values say.
constexpr pair_map k_expect = {
    {{"REQ-PARTICIPANT", "REQUIRE"}, {"OPT-PARTICIPANT", "REQUEST"}, {"NON-PARTICIPANT", "FYI"}, {}, {}, {}}};

struct name_map {
    std::string_view ical, vcal;
    const pair_map* values;
};
constexpr std::array<name_map, 3> k_names = {
    {{"PARTSTAT", "STATUS", &k_partstat}, {"RSVP", "RSVP", &k_rsvp}, {"ROLE", "EXPECT", &k_expect}}};

std::optional<std::string_view> mapped(const pair_map& values, std::string_view value, bool to_vcal) {
    for (const auto& [ical, vcal] : values) {
        if (!ical.empty() && (to_vcal ? ical : vcal) == value) return to_vcal ? vcal : ical;
    }
    return std::nullopt;
}

std::optional<param> mapped_param(const param& p, bool to_vcal) {
    for (const auto& n : k_names) {
        if (p.name != (to_vcal ? n.ical : n.vcal) || p.values.size() != 1) continue;
        if (auto v = mapped(*n.values, p.values[0], to_vcal))
            return param{std::string(to_vcal ? n.vcal : n.ical), {std::string(*v)}};
    }
    return std::nullopt;
}

param escaped(std::string_view prefix, const param& p) { return param{std::string(prefix) + p.name, p.values}; }

// 1.0 -> model. Names 2.0 does not share (1.0 ROLE: ATTENDEE, ORGANIZER, OWNER, DELEGATE), values without a
// 2.0 equivalent and names 2.0 uses otherwise (a 1.0 PARTSTAT) are escaped as X-SYNCML-VCAL-.
param read_param(const param& p) {
    if (p.name.starts_with(k_ical_hint)) return param{p.name.substr(k_ical_hint.size()), p.values};
    if (auto m = mapped_param(p, false)) return *m;
    const bool foreign = p.name == "STATUS" || p.name == "RSVP" || p.name == "EXPECT" || p.name == "ROLE" ||
                         p.name == "PARTSTAT" || p.name.starts_with(k_vcal_hint);
    return foreign ? escaped(k_vcal_hint, p) : p;
}

// Model -> 1.0, so that read_param gives `p` back: restore what read_param escaped, map what 1.0 can say,
// and escape as X-SYNCML-ICAL- whatever read_param would not return unchanged.
param write_param(const param& p) {
    if (p.name.starts_with(k_vcal_hint)) {
        param original{p.name.substr(k_vcal_hint.size()), p.values};
        if (read_param(original) == p) return original;
    }
    if (auto m = mapped_param(p, true)) return *m;
    return read_param(p) == p ? p : escaped(k_ical_hint, p);
}

}  // namespace

void attendee_params_from_vcal(std::vector<param>& params) {
    for (auto& p : params) p = read_param(p);
}

std::vector<param> attendee_params_to_vcal(const std::vector<param>& params) {
    std::vector<param> out;
    out.reserve(params.size());
    for (const auto& p : params) out.push_back(write_param(p));
    return out;
}

namespace {

constexpr std::string_view k_mailto = "mailto:";

// Characters that would make the address ambiguous in a 1.0 value or a mailto: URI we write.
bool plain_address(std::string_view address) {
    return !address.empty() && address.find_first_of(" \t<>\"\\;,:") == std::string_view::npos;
}

// What the reader makes of `p` once the writer has put it on a 1.0 line.
bool reads_back_as(const property& written, const property& original) {
    content_writer out(line_syntax::legacy);
    out.write(written.group, written.name, written.params, written.value);
    auto lines = read_content_lines(out.take());
    if (!lines || lines->size() != 1) return false;
    content_line& line = lines->front();
    if (find_param(line.params, "ENCODING") == nullptr) line.value = legacy_to_modern_escapes(line.value);
    if (line.name != "ATTENDEE") return false;
    attendee_from_vcal(line);
    return property{line.group, line.name, line.params, line.value} == original;
}

// A bare address, as 1.0 peers write an attendee without a name.
bool bare_address(std::string_view text) { return plain_address(text) && text.find('@') != std::string_view::npos; }

// 1.0 has no URIs here: mailto:a@b goes as the bare address, with CN as its display name. A CN that is not the
// first parameter stays where it is so that the reader can put it back in place (one it adds goes first).
property with_folded_name(property written) {
    if (!written.value.starts_with(k_mailto)) return written;
    mailbox m{{}, written.value.substr(k_mailto.size())};
    auto cn = std::find_if(written.params.begin(), written.params.end(), [](const param& p) { return p.name == "CN"; });
    if (cn != written.params.end()) {
        if (cn->values.size() != 1 || cn->values[0].empty()) return written;
        m.name = cn->values[0];
        if (cn == written.params.begin()) written.params.erase(cn);
    }
    written.value = escape_text(m.name.empty() ? m.address : format_mailbox(m), false);
    return written;
}

}  // namespace

std::optional<mailbox> parse_mailbox(std::string_view text) {
    text = common::trim(text, common::k_blanks);
    auto open = text.rfind('<');
    if (text.empty() || text.back() != '>' || open == std::string_view::npos) return std::nullopt;
    mailbox m;
    m.address = std::string(text.substr(open + 1, text.size() - open - 2));
    std::string_view name = common::trim(text.substr(0, open), common::k_blanks);
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
    if (!plain_address(m.address) || name.find_first_of("<>\"") != std::string_view::npos) return std::nullopt;
    m.name = std::string(name);
    return m;
}

std::string format_mailbox(const mailbox& m) {
    return m.name.empty() ? "<" + m.address + ">" : m.name + " <" + m.address + ">";
}

void attendee_from_vcal(content_line& line) {
    auto organizer = std::find_if(line.params.begin(), line.params.end(), [](const param& p) {
        return p.name == "ROLE" && p.values == std::vector<std::string>{"ORGANIZER"};
    });
    if (organizer != line.params.end()) {
        line.params.erase(organizer);
        line.name = "ORGANIZER";
    }
    attendee_params_from_vcal(line.params);
    const std::string text = unescape_text(line.value);
    auto m = bare_address(text) ? mailbox{{}, text} : parse_mailbox(text);
    if (!m) return;
    if (const param* cn = find_param(line.params, "CN")) {
        if (cn->values != std::vector<std::string>{m->name}) return;
    } else if (!m->name.empty()) {
        line.params.insert(line.params.begin(), param{"CN", {m->name}});
    }
    line.value = std::string(k_mailto) + m->address;
}

property attendee_to_vcal(const property& p) {
    const property plain{p.group, "ATTENDEE", attendee_params_to_vcal(p.params), p.value};
    for (property written : {with_folded_name(plain), plain}) {
        if (p.name == "ORGANIZER") written.params.insert(written.params.begin(), param{"ROLE", {"ORGANIZER"}});
        if (reads_back_as(written, p)) return written;
    }
    return property{p.group, std::string(k_ical_hint) + p.name, p.params, p.value};
}

}  // namespace syncml::matching
