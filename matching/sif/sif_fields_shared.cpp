// What the SIF documents share: X- properties for Outlook-only fields, categories, sensitivity and importance.
#include <algorithm>

#include "common/text/trim.hpp"
#include "matching/content/content_line.hpp"
#include "matching/sif/sif_items.hpp"

namespace syncml::matching {

void read_sif_extras(const sif_fields& fields, std::span<const sif_extra> table, std::vector<property>& out) {
    for (const auto& e : table) {
        auto value = fields.text(e.field);
        if (!common::trim(value, common::k_white_space).empty())
            out.push_back(property{{}, std::string(e.property), {}, escape_text(value)});
    }
}

void write_sif_extras(sif_writer& out, std::span<const sif_extra> table, const std::vector<property>& extra) {
    for (const auto& e : table) {
        auto found = std::find_if(extra.begin(), extra.end(), [&](const property& p) { return p.name == e.property; });
        out.field(e.field, found == extra.end() ? std::string() : unescape_text(found->value));
    }
}

std::vector<std::string> read_sif_categories(const sif_fields& fields) {
    std::vector<std::string> out;
    const std::string text = fields.text("Categories");
    std::string_view rest = text;
    while (!rest.empty() && out.size() < k_max_list_parts) {
        auto cut = rest.find_first_of(",;");
        auto part = common::trim(rest.substr(0, cut), common::k_white_space);
        if (!part.empty()) out.emplace_back(part);
        rest = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + 1);
    }
    return out;
}

std::string sif_categories(const std::vector<std::string>& categories) {
    std::string out;
    for (const auto& c : categories) {
        if (!out.empty()) out += ", ";
        out += c;
    }
    return out;
}

std::string class_of_sensitivity(std::optional<int> sensitivity) {
    switch (sensitivity.value_or(0)) {
        case 1:
        case 2:
            return "PRIVATE";
        case 3:
            return "CONFIDENTIAL";
        default:
            return {};
    }
}

int sensitivity_of_class(std::string_view class_) {
    if (class_ == "PRIVATE") return 2;
    if (class_ == "CONFIDENTIAL") return 3;
    return 0;
}

void read_sif_component(const sif_fields& fields, calendar_component& out) {
    out.summary = fields.trimmed("Subject");
    out.description = fields.text("Body");
    out.categories = read_sif_categories(fields);
    out.class_ = class_of_sensitivity(fields.number("Sensitivity"));
    out.priority = priority_of_importance(fields.number("Importance"));
}

void write_sif_component(sif_writer& out, const calendar_component& c) {
    out.field("Subject", c.summary);
    out.field("Body", c.description);
    out.field("Categories", sif_categories(c.categories));
    out.field("Sensitivity", sensitivity_of_class(c.class_));
    out.field("Importance", importance_of_priority(c.priority));
}

calendar calendar_of(calendar_component component) {
    calendar cal;
    cal.components.push_back(std::move(component));
    return cal;
}

int priority_of_importance(std::optional<int> importance) {
    if (importance == 2) return 1;
    if (importance == 0) return 9;
    return 0;
}

int importance_of_priority(int priority) {
    if (priority >= 1 && priority <= 4) return 2;
    if (priority >= 6 && priority <= 9) return 0;
    return 1;
}

}  // namespace syncml::matching
