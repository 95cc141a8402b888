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

// The components read so far: the open ones, innermost last, and the closed outermost ones.
struct component_nesting {
    std::vector<raw_component> roots;
    std::vector<raw_component> open;

    void close_innermost() {
        raw_component done = std::move(open.back());
        open.pop_back();
        if (open.empty())
            roots.push_back(std::move(done));
        else
            open.back().children.push_back(std::move(done));
    }

    // Closes the innermost open component named `name` with every one inside it; a stray END closes nothing.
    void close(const std::string& name) {
        bool is_open = false;  // the stack is at most max_depth long: no quadratic scan
        for (const auto& c : open) is_open = is_open || c.name == name;
        if (!is_open) return;
        while (open.back().name != name) close_innermost();
        close_innermost();
    }
};

}  // namespace

result<std::vector<raw_component>> build_components(std::vector<content_line> lines, const parse_limits& limits) {
    component_nesting nesting;
    auto& open = nesting.open;
    for (auto& line : lines) {
        if (line.name == "BEGIN") {
            if (open.size() == limits.max_depth) {
                return item_error{item_errc::malformed,
                                  "components nested deeper than " + std::to_string(limits.max_depth), line.line};
            }
            open.push_back(raw_component{component_name(line), {}, {}, line.line});
        } else if (line.name == "END") {
            nesting.close(component_name(line));
        } else if (open.empty() && !nesting.roots.empty()) {
            nesting.roots.back().lines.push_back(std::move(line));  // trailing junk after END: kept, not lost
        } else if (open.empty()) {
            return item_error{item_errc::malformed, "property " + line.name + " outside any BEGIN/END block",
                              line.line};
        } else {
            open.back().lines.push_back(std::move(line));
        }
    }
    while (!open.empty()) nesting.close_innermost();
    if (nesting.roots.empty()) return item_error{item_errc::malformed, "no BEGIN line found", 1};
    return std::move(nesting.roots);
}

void flatten_component(const raw_component& component, std::vector<property>& out) {
    out.push_back(property{{}, "BEGIN", {}, component.name});
    for (const auto& line : component.lines) out.push_back(property{line.group, line.name, line.params, line.value});
    for (const auto& child : component.children) flatten_component(child, out);
    out.push_back(property{{}, "END", {}, component.name});
}

}  // namespace syncml::matching
