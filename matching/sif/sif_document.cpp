#include "matching/sif/sif_document.hpp"

#include <algorithm>
#include <charconv>

#include "common/text/ascii_case.hpp"
#include "common/text/trim.hpp"
#include "common/text/xml_escape.hpp"

namespace syncml::matching {
namespace {

// XML 1.0 cannot carry most controls, escaped or not; a CR would come back as LF from any parser.
constexpr common::xml_escape_rules k_text_rules{.quote = true, .carriage_return = true, .drop_controls = true};

}  // namespace

result<common::xml_element> read_sif_document(std::string_view data, const parse_limits& limits) {
    auto parsed = common::parse_xml(data, {.max_depth = limits.max_depth, .max_elements = limits.max_lines});
    if (!parsed.root) return item_error{item_errc::malformed, "SIF item is no well-formed XML: " + parsed.error, 0};
    return std::move(*parsed.root);
}

bool sif_fields::ascii_case_less::operator()(std::string_view a, std::string_view b) const {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                        [&](char x, char y) { return lower(x) < lower(y); });
}

sif_fields::sif_fields(const common::xml_element& element) {
    for (const auto& child : element.children) by_name_.emplace(child.name, &child);
}

const common::xml_element* sif_fields::find(std::string_view name) const {
    auto found = by_name_.find(name);
    return found == by_name_.end() ? nullptr : found->second;
}

std::string sif_fields::text(std::string_view name) const {
    const auto* element = find(name);
    return element ? element->text : std::string();
}

std::string sif_fields::trimmed(std::string_view name) const {
    const auto* element = find(name);
    return element ? element->trimmed_text() : std::string();
}

std::optional<int> sif_fields::number(std::string_view name) const {
    auto value = trimmed(name);
    int out = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size()) return std::nullopt;
    return out;
}

bool sif_fields::flag(std::string_view name) const {
    auto value = trimmed(name);
    return value == "1" || common::iequals(value, "true");
}

sif_writer::sif_writer(std::string_view root) : root_(root) {
    out_ = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<" + root_ + ">\n";
    field("SIFVersion", "1.1");
}

void sif_writer::field(std::string_view name, std::string_view value) {
    out_ += '<';
    out_ += name;
    if (value.empty()) {
        out_ += "/>\n";
        return;
    }
    out_ += '>';
    common::append_xml_escaped(value, out_, k_text_rules);
    close(name);
}

void sif_writer::field(std::string_view name, std::string_view attribute, std::string_view attribute_value,
                       std::string_view value) {
    out_ += '<';
    out_ += name;
    out_ += ' ';
    out_ += attribute;
    out_ += "=\"";
    common::append_xml_escaped(attribute_value, out_, k_text_rules);
    out_ += "\">";
    common::append_xml_escaped(value, out_, k_text_rules);
    close(name);
}

void sif_writer::open(std::string_view name) {
    out_ += '<';
    out_ += name;
    out_ += ">\n";
}

void sif_writer::close(std::string_view name) {
    out_ += "</";
    out_ += name;
    out_ += ">\n";
}

std::string sif_writer::finish() {
    close(root_);
    return std::move(out_);
}

}  // namespace syncml::matching
