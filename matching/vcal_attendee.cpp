// ATTENDEE parameters between the vCalendar 1.0 and iCalendar 2.0 vocabularies. The model keeps 2.0 names;
// a 1.0 value with no 2.0 equivalent (ROLE=ORGANIZER, STATUS=SENT, ...) is kept as X-SYNCML-VCAL-<NAME> and a
// 2.0 one (PARTSTAT=IN-PROCESS, ROLE=CHAIR, ...) travels to 1.0 as X-SYNCML-ICAL-<NAME>, so that reading what
// the writer wrote gives the parameters back exactly.
#include <array>
#include <utility>

#include "matching/calendar_fields.hpp"
#include "matching/vcal_reader.hpp"

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

}  // namespace syncml::matching
