#include "session/codec/xml_reader.hpp"

#include "common/text/ascii_case.hpp"
#include "matching/content/text_codec.hpp"
#include "session/codec/codec_budget.hpp"

#include <cstdint>
#include <string>

namespace syncml::session {

namespace {

// Typographic quotes around attribute values (specs pasted into client code): ‘ ’ “ ” in UTF-8, and
// their Windows-1252 bytes 0x91..0x94 in 8-bit documents.
constexpr std::string_view k_typographic_quotes[] = {"\xE2\x80\x98", "\xE2\x80\x99", "\xE2\x80\x9C", "\xE2\x80\x9D"};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool is_name_start(char c) {
    const auto u = static_cast<unsigned char>(c);
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':' || u >= 0x80;
}

bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }

codec_ns ns_from_uri(std::string_view uri) {
    if (common::iequals(uri, "syncml:metinf")) return codec_ns::metinf;
    if (common::iequals(uri, "syncml:devinf")) return codec_ns::devinf;
    if (common::istarts_with(uri, "syncml:syncml")) return codec_ns::syncml;
    return codec_ns::inherit;
}

std::optional<syncml_version> version_from_namespace(std::string_view uri) {
    // "SYNCML:SYNCML1.2" -> "1.2"
    return uri.size() > 13 ? version_from_ver_dtd(uri.substr(13)) : std::nullopt;
}

class xml_reader {
  public:
    xml_reader(std::string_view in, const decode_limits& limits, std::size_t depth_used)
        : in_(in), limits_(limits), depth_used_(depth_used), budget_(in.size(), limits) {}

    xml_document run() {
        xml_document doc;
        parse(doc.root);
        doc.error = std::move(error_);
        doc.ns_version = ns_version_;
        doc.text_used = budget_.used();
        doc.text_left = budget_.left();
        return doc;
    }

  private:
    bool parse(codec_node& root) {
        if (in_.size() > limits_.max_input_bytes) return fail(limits_.max_input_bytes, "input within size limit");
        if (in_.substr(0, 3) == "\xEF\xBB\xBF")
            pos_ = 3;
        else
            charset_ = charset_to_convert();
        if (!skip_misc(true)) return false;
        if (pos_ >= in_.size() || in_[pos_] != '<') return fail(pos_, "root element");
        if (!element(root, depth_used_ + 1)) return false;
        if (!skip_misc(false)) return false;
        if (pos_ < in_.size()) return fail(pos_, "end of document");
        return true;
    }

    decode_error error(std::size_t offset, std::string expected) {
        decode_error e;
        e.offset = offset;
        e.expected = std::move(expected);
        e.encoding = wire_encoding::xml;
        return e;
    }
    bool fail(std::size_t offset, std::string expected) {
        if (!error_) error_ = error(offset, std::move(expected));
        return false;
    }

    bool starts(std::string_view s) const { return in_.substr(pos_, s.size()) == s; }

    void skip_space() {
        while (pos_ < in_.size() && is_space(in_[pos_])) ++pos_;
    }

    bool skip_past(std::string_view terminator, const char* expected) {
        auto at = in_.find(terminator, pos_);
        if (at == std::string_view::npos) return fail(in_.size(), expected);
        pos_ = at + terminator.size();
        return true;
    }

    bool skip_doctype() {
        // The internal subset may contain '>' inside brackets; nothing in it matters to SyncML.
        int brackets = 0;
        for (; pos_ < in_.size(); ++pos_) {
            const char c = in_[pos_];
            if (c == '[') ++brackets;
            if (c == ']') --brackets;
            if (c == '>' && brackets <= 0) {
                ++pos_;
                return true;
            }
        }
        return fail(in_.size(), "'>' closing <!DOCTYPE");
    }

    // Whitespace, comments, PIs and (in the prolog) DOCTYPE between top-level constructs.
    bool skip_misc(bool prolog) {
        for (;;) {
            skip_space();
            if (starts("<?")) {
                if (!skip_past("?>", "'?>'")) return false;
            } else if (starts("<!--")) {
                if (!skip_past("-->", "'-->'")) return false;
            } else if (prolog && starts("<!DOCTYPE")) {
                if (!skip_doctype()) return false;
            } else {
                return true;
            }
        }
    }

    std::string_view name() {
        const auto begin = pos_;
        while (pos_ < in_.size() && is_name_char(in_[pos_])) ++pos_;
        return in_.substr(begin, pos_ - begin);
    }

    static std::string_view local(std::string_view qname) {
        auto colon = qname.rfind(':');
        return colon == std::string_view::npos ? qname : qname.substr(colon + 1);
    }

    bool attributes(codec_node& node, bool& empty) {
        for (;;) {
            skip_space();
            if (pos_ >= in_.size()) return fail(pos_, "'>' closing <" + node.name + ">");
            if (in_[pos_] == '>') {
                ++pos_;
                empty = false;
                return true;
            }
            if (starts("/>")) {
                pos_ += 2;
                empty = true;
                return true;
            }
            if (!attribute(node)) return false;
        }
    }

    // Length of the typographic quote at `at` (see k_typographic_quotes), 0 when there is none.
    std::size_t typographic_quote_at(std::size_t at) const {
        if (at >= in_.size()) return 0;
        const auto c = static_cast<unsigned char>(in_[at]);
        if (!charset_.empty() && c >= 0x91 && c <= 0x94) return 1;
        for (auto q : k_typographic_quotes)
            if (in_.substr(at, q.size()) == q) return q.size();
        return 0;
    }

    bool attribute(codec_node& node) {
        const auto attr_name = name();
        if (attr_name.empty()) return fail(pos_, "attribute name or '>'");
        skip_space();
        if (pos_ >= in_.size() || in_[pos_] != '=') return fail(pos_, "'=' after attribute name");
        ++pos_;
        skip_space();
        const char quote = pos_ < in_.size() ? in_[pos_] : '\0';
        auto end = std::string_view::npos;
        std::size_t close = 1;
        if (quote == '"' || quote == '\'') {
            end = in_.find(quote, ++pos_);
        } else if (const auto open = typographic_quote_at(pos_)) {
            pos_ += open;
            for (auto at = pos_; at < in_.size() && end == std::string_view::npos; ++at)
                if ((close = typographic_quote_at(at))) end = at;
        } else {
            return fail(pos_, "quoted attribute value");
        }
        if (end == std::string_view::npos) return fail(in_.size(), "closing quote of attribute value");
        const auto value = in_.substr(pos_, end - pos_);
        pos_ = end + close;
        if (attr_name == "xmlns") node.ns = ns_from_uri(value);
        if (node.ns == codec_ns::syncml && !ns_version_) ns_version_ = version_from_namespace(value);
        return true;
    }

    // The charset named by the XML declaration when the text must be converted to UTF-8: not for UTF-8
    // or ASCII, and not when the bytes are valid UTF-8 anyway (phones that say Latin-1 but send UTF-8,
    // nested DevInf text that the outer document already converted).
    std::string charset_to_convert() const {
        const auto begin = in_.find_first_not_of(" \t\r\n");
        if (begin == std::string_view::npos || in_.substr(begin, 5) != "<?xml") return {};
        const auto decl = in_.substr(begin, in_.find("?>", begin) - begin);
        auto at = decl.find("encoding");
        if (at != std::string_view::npos) at = decl.find_first_of("\"'", at);
        if (at == std::string_view::npos) return {};
        const auto close = decl.find(decl[at], at + 1);
        if (close == std::string_view::npos) return {};
        const auto charset = decl.substr(at + 1, close - at - 1);
        for (std::string_view same : {"utf-8", "utf8", "us-ascii", "ascii"})
            if (common::iequals(charset, same)) return {};
        if (matching::is_valid_utf8(in_)) return {};
        return std::string(charset);
    }

    // Character data into the tree: converted to UTF-8 when the document uses an 8-bit charset. A charset
    // nobody knows leaves the bytes as they are (tolerance, like item data in an undeclared charset).
    bool append_text(std::string& out, std::string_view text) {
        if (charset_.empty() || matching::is_ascii(text)) return append_decoded(out, text);
        if (auto utf8 = matching::to_utf8(text, charset_)) return append_decoded(out, *utf8);
        return append_decoded(out, text);
    }

    bool append_decoded(std::string& out, std::string_view text) {
        if (!budget_.take(out.size(), text.size())) return fail(pos_, std::string(k_text_limit_expected));
        out.append(text);
        return true;
    }

    // At '&'. The ';' is looked for within the longest reference we decode only: a search to the end of
    // the input per '&' made a body of '&' quadratic (1.5 MB took 10 s).
    bool entity(std::string& out) {
        constexpr std::size_t k_longest_reference = 12;  // "&#0001114111;" minus the '&'
        const auto semi_in_window = in_.substr(pos_ + 1, k_longest_reference).find(';');
        if (semi_in_window == std::string_view::npos) return literal_char(out);
        const auto semi = pos_ + 1 + semi_in_window;
        const auto ref = in_.substr(pos_ + 1, semi - pos_ - 1);
        std::optional<std::uint32_t> cp;
        if (ref == "lt")
            cp = '<';
        else if (ref == "gt")
            cp = '>';
        else if (ref == "amp")
            cp = '&';
        else if (ref == "quot")
            cp = '"';
        else if (ref == "apos")
            cp = '\'';
        else if (ref.size() > 1 && ref[0] == '#')
            cp = char_ref(ref.substr(1));
        if (!cp) return literal_char(out);  // not an entity: phones send bare '&' in item data
        std::string utf8;
        matching::append_utf8(utf8, *cp);
        pos_ = semi + 1;
        return append_decoded(out, utf8);
    }

    // The byte at pos_ kept as text (bare '&', stray '<').
    bool literal_char(std::string& out) {
        if (!append_decoded(out, in_.substr(pos_, 1))) return false;
        ++pos_;
        return true;
    }

    static std::optional<std::uint32_t> char_ref(std::string_view digits) {
        int base = 10;
        if (!digits.empty() && (digits[0] == 'x' || digits[0] == 'X')) {
            base = 16;
            digits.remove_prefix(1);
        }
        if (digits.empty()) return std::nullopt;
        std::uint32_t value = 0;
        for (char c : digits) {
            int d = -1;
            if (c >= '0' && c <= '9')
                d = c - '0';
            else if (base == 16 && c >= 'a' && c <= 'f')
                d = c - 'a' + 10;
            else if (base == 16 && c >= 'A' && c <= 'F')
                d = c - 'A' + 10;
            if (d < 0) return std::nullopt;
            value = value * base + d;
            if (value > 0x10FFFF) return std::nullopt;
        }
        return value;
    }

    bool element(codec_node& node, std::size_t depth) {
        if (depth > limits_.max_depth) return fail(pos_, "nesting within depth limit");
        if (++elements_ > limits_.max_elements) return fail(pos_, "element count within limit");
        node.offset = pos_;
        ++pos_;
        const auto qname = name();
        if (qname.empty()) return fail(pos_, "element name");
        if (!append_decoded(node.name, local(qname))) return false;
        bool empty = false;
        if (!attributes(node, empty)) return false;
        if (!empty && !content(node, qname, depth)) return false;
        node.complete = true;
        return true;
    }

    bool content(codec_node& node, std::string_view qname, std::size_t depth) {
        const auto content_begin = pos_;
        for (;;) {
            const auto next = in_.find_first_of("<&", pos_);
            if (next == std::string_view::npos) return fail(in_.size(), "</" + std::string(qname) + ">");
            if (!append_text(node.text, in_.substr(pos_, next - pos_))) return false;
            pos_ = next;
            if (in_[pos_] == '&') {
                if (!entity(node.text)) return false;
            } else if (starts("</")) {
                const auto content_end = pos_;
                if (!end_tag(qname)) return false;
                if (node.name == "Data" && !node.children.empty())
                    return append_text(node.raw.emplace(), in_.substr(content_begin, content_end - content_begin));
                return true;
            } else if (!markup(node, depth)) {
                return false;
            }
        }
    }

    bool end_tag(std::string_view qname) {
        const auto at = pos_;
        pos_ += 2;
        const auto closing = name();
        if (local(closing) != local(qname)) return fail(at, "</" + std::string(qname) + ">");
        skip_space();
        if (pos_ >= in_.size() || in_[pos_] != '>') return fail(pos_, "'>' closing </" + std::string(qname) + ">");
        ++pos_;
        return true;
    }

    // At '<' inside content: CDATA, comment, PI, child element, or a stray '<' kept as text.
    bool markup(codec_node& node, std::size_t depth) {
        if (starts("<![CDATA[")) {
            const auto end = in_.find("]]>", pos_ + 9);
            if (end == std::string_view::npos) return fail(in_.size(), "']]>' closing CDATA");
            const auto cdata = in_.substr(pos_ + 9, end - pos_ - 9);
            pos_ = end + 3;
            return append_text(node.text, cdata);
        }
        if (starts("<!--")) return skip_past("-->", "'-->'");
        if (starts("<?")) return skip_past("?>", "'?>'");
        if (pos_ + 1 < in_.size() && is_name_start(in_[pos_ + 1])) {
            node.children.emplace_back();
            return element(node.children.back(), depth + 1);
        }
        return literal_char(node.text);
    }

    std::string_view in_;
    const decode_limits& limits_;
    std::size_t depth_used_;
    std::size_t pos_ = 0;
    std::size_t elements_ = 0;
    std::optional<decode_error> error_;
    std::optional<syncml_version> ns_version_;
    std::string charset_;  // non-empty: the document's 8-bit charset, converted to UTF-8 on the way in
    text_budget budget_;
};

}  // namespace

xml_document read_xml(std::string_view bytes, const decode_limits& limits, std::size_t depth_used) {
    return xml_reader(bytes, limits, depth_used).run();
}

}  // namespace syncml::session
