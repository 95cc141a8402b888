#include "matching/content/text_lines.hpp"

#include "common/text/ascii_case.hpp"

namespace syncml::matching {

std::vector<std::string> text_lines(std::string_view text, text_line_options options) {
    std::vector<std::string> lines;
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        if (line.ends_with('\r')) line.remove_suffix(1);
        const bool fold = !line.empty() && (line[0] == ' ' || line[0] == '\t');
        if (options.unfold && fold && !lines.empty()) {
            lines.back() += line.substr(1);
        } else if (options.keep_empty || !line.empty()) {
            lines.emplace_back(line);
        }
        pos = end + 1;
    }
    return lines;
}

std::string text_line_name(std::string_view line) {
    auto name = line.substr(0, line.find_first_of(":;"));
    if (auto dot = name.find('.'); dot != std::string_view::npos) name = name.substr(dot + 1);
    return common::to_upper(name);
}

std::string text_line_value(std::string_view line) {
    const auto colon = line.find(':');
    return colon == std::string_view::npos ? std::string() : std::string(line.substr(colon + 1));
}

}  // namespace syncml::matching
