// Component nesting of iCalendar/vCalendar data.
#include "matching/calendar/calendar_codec.hpp"

#include "common/text/ascii_case.hpp"
#include "common/text/trim.hpp"

namespace syncml::matching {

namespace {

std::string component_name(const content_line& line) {
    const std::string name = common::to_upper(unescape_text(line.value));
    return std::string(common::trim_right(name, common::k_blanks));
}

}  // namespace

result<std::vector<raw_component>> build_components(std::vector<content_line> lines, const parse_limits& limits) {
    std::vector<raw_component> roots;
    std::vector<raw_component> stack;
    auto close_top = [&]() {
        raw_component done = std::move(stack.back());
        stack.pop_back();
        if (stack.empty())
            roots.push_back(std::move(done));
        else
            stack.back().children.push_back(std::move(done));
    };
    for (auto& line : lines) {
        if (line.name == "BEGIN") {
            if (stack.size() == limits.max_depth) {
                return item_error{item_errc::malformed,
                                  "components nested deeper than " + std::to_string(limits.max_depth), line.line};
            }
            stack.push_back(raw_component{component_name(line), {}, {}, line.line});
            continue;
        }
        if (line.name == "END") {
            std::string name = component_name(line);
            bool open = false;  // the stack is at most max_depth long: no quadratic scan
            for (const auto& c : stack) open = open || c.name == name;
            if (!open) continue;  // a stray END: nothing to close
            while (stack.back().name != name) close_top();
            close_top();
            continue;
        }
        if (stack.empty() && !roots.empty()) {
            roots.back().lines.push_back(std::move(line));  // trailing junk after END: kept, not lost
            continue;
        }
        if (stack.empty()) {
            return item_error{item_errc::malformed, "property " + line.name + " outside any BEGIN/END block",
                              line.line};
        }
        stack.back().lines.push_back(std::move(line));
    }
    while (!stack.empty()) close_top();
    if (roots.empty()) return item_error{item_errc::malformed, "no BEGIN line found", 1};
    return roots;
}

void flatten_component(const raw_component& component, std::vector<property>& out) {
    out.push_back(property{{}, "BEGIN", {}, component.name});
    for (const auto& line : component.lines) out.push_back(property{line.group, line.name, line.params, line.value});
    for (const auto& child : component.children) flatten_component(child, out);
    out.push_back(property{{}, "END", {}, component.name});
}

}  // namespace syncml::matching
