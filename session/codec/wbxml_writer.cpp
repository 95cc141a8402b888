#include "session/codec/wbxml_writer.hpp"

#include <map>
#include <set>
#include <unordered_map>

namespace syncml::session {

namespace {

constexpr char k_switch_page = 0x00;
constexpr char k_end = 0x01;
constexpr char k_str_i = 0x03;
constexpr char k_literal = 0x04;
constexpr char k_str_t = static_cast<char>(0x83);
constexpr char k_opaque = static_cast<char>(0xC3);
constexpr std::uint32_t k_charset_utf8 = 106;
constexpr std::size_t k_min_table_string = 4;

void append_mb(std::string& out, std::uint32_t value) {
    char buf[5];
    int n = 0;
    do {
        buf[n++] = static_cast<char>(value & 0x7F);
        value >>= 7;
    } while (value != 0);
    while (n > 1) out += static_cast<char>(buf[--n] | 0x80);
    out += buf[0];
}

std::size_t mb_size(std::uint32_t value) {
    std::size_t n = 1;
    while (value >>= 7) ++n;
    return n;
}

syncml_version devinf_version(const codec_node& devinf) {
    if (const auto* v = devinf.child("VerDTD")) {
        if (auto parsed = version_from_ver_dtd(v->text)) return *parsed;
    }
    return syncml_version::v1_2;
}

class wbxml_writer {
  public:
    wbxml_writer(wbxml_doc doc, syncml_version version, const wbxml_write_options& options)
        : doc_(doc), version_(version), options_(options) {}

    std::string run(const codec_node& root) {
        build_table(root);
        std::string out;
        out += '\x02';
        append_mb(out, public_id_number(doc_, version_));
        append_mb(out, k_charset_utf8);
        append_mb(out, static_cast<std::uint32_t>(table_.size()));
        out += table_;
        element(root, page_for(root, 0), out);
        return out;
    }

  private:
    bool nested_devinf(const codec_node& node) const {
        return doc_ == wbxml_doc::syncml && node.ns == codec_ns::devinf;
    }

    std::uint8_t page_for(const codec_node& node, std::uint8_t inherited) const {
        if (doc_ == wbxml_doc::devinf) return 0;
        if (node.ns == codec_ns::metinf) return k_page_metinf;
        if (node.ns == codec_ns::syncml) return k_page_syncml;
        return inherited;
    }

    bool table_candidate(const codec_node& node) const {
        return !node.opaque && node.text.size() >= k_min_table_string && node.text.find('\0') == std::string::npos;
    }

    void count(const codec_node& node, std::uint8_t page,
               std::map<std::string, std::pair<std::size_t, std::size_t>>& seen, std::size_t& order) {
        if (nested_devinf(node)) return;
        page = page_for(node, page);
        if (!wbxml_tag_token(doc_, page, node.name)) literals_.insert(node.name);
        if (options_.use_string_table && table_candidate(node)) {
            auto& entry = seen[node.text];
            if (entry.first == 0) entry.second = order++;
            ++entry.first;
        }
        for (const auto& c : node.children) count(c, page, seen, order);
    }

    // Deterministic: candidates enter the table in order of first use when that saves bytes.
    void build_table(const codec_node& root) {
        std::map<std::string, std::pair<std::size_t, std::size_t>> seen;
        std::size_t order = 0;
        count(root, 0, seen, order);
        for (const auto& name : literals_) {
            index_.emplace(name, static_cast<std::uint32_t>(table_.size()));
            table_ += name;
            table_ += '\0';
        }
        std::map<std::size_t, const std::string*> chosen;
        for (const auto& [text, stats] : seen) {
            const auto inline_cost = stats.first * (text.size() + 2);
            const auto table_cost =
                text.size() + 1 + stats.first * (1 + mb_size(static_cast<std::uint32_t>(order * 8)));
            if (stats.first >= 2 && table_cost < inline_cost) chosen[stats.second] = &text;
        }
        for (const auto& [ignored, text] : chosen) {
            if (index_.count(*text)) continue;
            index_.emplace(*text, static_cast<std::uint32_t>(table_.size()));
            table_ += *text;
            table_ += '\0';
        }
    }

    void switch_to(std::uint8_t page, std::string& out) {
        if (page == page_) return;
        out += k_switch_page;
        out += static_cast<char>(page);
        page_ = page;
    }

    void text(const codec_node& node, std::string& out) {
        if (node.text.empty()) return;
        if (node.opaque || node.text.find('\0') != std::string::npos) {
            out += k_opaque;
            append_mb(out, static_cast<std::uint32_t>(node.text.size()));
            out += node.text;
            return;
        }
        if (auto it = index_.find(node.text); it != index_.end()) {
            out += k_str_t;
            append_mb(out, it->second);
            return;
        }
        out += k_str_i;
        out += node.text;
        out += '\0';
    }

    void element(const codec_node& node, std::uint8_t page, std::string& out) {
        const bool has_content = !node.text.empty() || !node.children.empty();
        const char content_flag = has_content ? 0x40 : 0;
        if (auto token = wbxml_tag_token(doc_, page, node.name)) {
            switch_to(page, out);
            out += static_cast<char>(*token | content_flag);
        } else {
            out += static_cast<char>(k_literal | content_flag);
            append_mb(out, index_.at(node.name));
        }
        if (!has_content) return;
        text(node, out);
        for (const auto& c : node.children) {
            if (nested_devinf(c)) {
                const auto nested = wbxml_writer(wbxml_doc::devinf, devinf_version(c), options_).run(c);
                out += k_opaque;
                append_mb(out, static_cast<std::uint32_t>(nested.size()));
                out += nested;
                continue;
            }
            element(c, page_for(c, page), out);
        }
        out += k_end;
    }

    wbxml_doc doc_;
    syncml_version version_;
    const wbxml_write_options& options_;
    std::string table_;
    std::unordered_map<std::string, std::uint32_t> index_;
    std::set<std::string> literals_;  // element names without a token: written as LITERAL
    std::uint8_t page_ = 0;
};

}  // namespace

std::string write_wbxml(const codec_node& root, wbxml_doc doc, syncml_version version,
                        const wbxml_write_options& options) {
    return wbxml_writer(doc, version, options).run(root);
}

}  // namespace syncml::session
