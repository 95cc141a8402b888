#include "dav/query/card_match.hpp"

#include <algorithm>

#include "common/text/ascii_case.hpp"
#include "dav/query/text_match.hpp"
#include "matching/content/content_line.hpp"

namespace syncml::dav::query {
namespace {

using matching::content_line;

// The values of parameter `name` of a line; vCard 2.1's bare values (TEL;HOME) are TYPEs.
std::vector<std::string> parameter_values(const content_line& line, std::string_view name) {
    std::vector<std::string> out;
    for (const auto& p : line.params) {
        if (p.name == name || (p.name.empty() && name == "TYPE"))
            out.insert(out.end(), p.values.begin(), p.values.end());
    }
    return out;
}

bool param_matches(const param_filter& f, const content_line& line) {
    const auto values = parameter_values(line, f.name);
    if (f.is_not_defined) return values.empty();
    if (!f.match) return !values.empty();
    return std::any_of(values.begin(), values.end(), [&](const std::string& v) { return text_matches(v, *f.match); });
}

// One test of a prop-filter (a text-match or a param-filter) holds for some property it names.
template <class Test>
bool some_line(const std::vector<const content_line*>& lines, Test test) {
    return std::any_of(lines.begin(), lines.end(), [&](const content_line* l) { return test(*l); });
}

bool prop_matches(const prop_filter& f, const std::vector<content_line>& card) {
    std::vector<const content_line*> lines;
    for (const auto& line : card) {
        if (line.name == f.name) lines.push_back(&line);
    }
    if (f.is_not_defined) return lines.empty();
    if (lines.empty()) return false;
    std::vector<bool> results;
    for (const auto& m : f.matches) {
        results.push_back(
            some_line(lines, [&](const content_line& l) { return text_matches(matching::unescape_text(l.value), m); }));
    }
    for (const auto& p : f.params)
        results.push_back(some_line(lines, [&](const content_line& l) { return param_matches(p, l); }));
    if (results.empty()) return true;
    return f.all_of ? std::all_of(results.begin(), results.end(), [](bool b) { return b; })
                    : std::any_of(results.begin(), results.end(), [](bool b) { return b; });
}

}  // namespace

bool card_matches(const card_filter& filter, std::string_view text) {
    if (filter.props.empty()) return true;
    auto lines = matching::read_content_lines(text);
    if (!lines) return true;
    const auto test = [&](const prop_filter& f) { return prop_matches(f, *lines); };
    return filter.all_of ? std::all_of(filter.props.begin(), filter.props.end(), test)
                         : std::any_of(filter.props.begin(), filter.props.end(), test);
}

}  // namespace syncml::dav::query
