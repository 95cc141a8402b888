// SIF-N: an Outlook note, whose Subject is its Body's first line, as a memo.
#include <array>

#include "matching/sif/sif_items.hpp"

namespace syncml::matching {
namespace {

constexpr std::array<sif_extra, 5> k_extras{{
    {"Color", "X-FUNAMBOL-COLOR"},
    {"Height", "X-FUNAMBOL-HEIGHT"},
    {"Width", "X-FUNAMBOL-WIDTH"},
    {"Left", "X-FUNAMBOL-LEFT"},
    {"Top", "X-FUNAMBOL-TOP"},
}};

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

memo read_sif_note(const sif_fields& fields) {
    memo m;
    m.summary = fields.trimmed("Subject");
    m.body = fields.text("Body");
    // A memo's body holds its whole text: a Subject the Body does not start with is its first line.
    if (m.summary.empty()) {
        m.summary = first_line(m.body);
    } else if (!m.body.starts_with(m.summary)) {
        m.body = m.body.empty() ? m.summary : m.summary + "\n" + m.body;
    }
    m.categories = read_sif_categories(fields);
    read_sif_extras(fields, k_extras, m.extra);
    return m;
}

std::string write_sif_note(const memo& value) {
    sif_writer out("note");
    out.field("Subject", value.summary.empty() ? first_line(value.body) : value.summary);
    out.field("Body", value.body);
    out.field("Categories", sif_categories(value.categories));
    write_sif_extras(out, k_extras, value.extra);
    return out.finish();
}

}  // namespace syncml::matching
