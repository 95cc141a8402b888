#include "session/codec/wbxml_reader.hpp"

#include "matching/content/text_codec.hpp"
#include "session/codec/codec_budget.hpp"

#include <string>

namespace syncml::session {

namespace {

constexpr std::uint8_t k_switch_page = 0x00;
constexpr std::uint8_t k_end = 0x01;
constexpr std::uint8_t k_entity = 0x02;
constexpr std::uint8_t k_str_i = 0x03;
constexpr std::uint8_t k_literal = 0x04;
constexpr std::uint8_t k_pi = 0x43;
constexpr std::uint8_t k_str_t = 0x83;
constexpr std::uint8_t k_opaque = 0xC3;
constexpr std::uint32_t k_charset_utf8 = 106;

// IANA MIBenum -> charset name for the 8-bit and legacy charsets phones declare; strings in them are
// converted to UTF-8 (opaque data stays as is). Others, and UTF-8 itself, pass through unchanged.
std::string charset_name(std::uint32_t mib) {
    if (mib == 4) return "ISO-8859-1";
    if (mib >= 5 && mib <= 12) return "ISO-8859-" + std::to_string(mib - 3);
    if (mib == 109) return "ISO-8859-13";
    if (mib == 111) return "ISO-8859-15";
    if (mib >= 2250 && mib <= 2258) return "WINDOWS-" + std::to_string(mib - 1000);
    if (mib == 17) return "SHIFT_JIS";
    if (mib == 2025) return "GB2312";
    if (mib == 2026) return "BIG5";
    if (mib == 2084) return "KOI8-R";
    return {};
}

class wbxml_reader {
  public:
    wbxml_reader(std::string_view in, const decode_limits& limits, std::size_t depth_used)
        : in_(in), limits_(limits), depth_used_(depth_used), budget_(in.size(), limits) {}

    wbxml_document run() {
        wbxml_document doc;
        parse(doc);
        doc.error = std::move(error_);
        doc.text_used = budget_.used();
        doc.text_left = budget_.left();
        return doc;
    }

  private:
    bool parse(wbxml_document& doc) {
        if (in_.size() > limits_.max_input_bytes) return fail(limits_.max_input_bytes, "input within size limit");
        if (!header(doc) || !skip_pis()) return false;
        if (pos_ >= in_.size()) return fail(pos_, "root element");
        if (!guess_doc(doc) || !element(doc.root, depth_used_ + 1)) return false;
        return skip_pis();
    }

    decode_error error(std::size_t offset, std::string expected) const {
        decode_error e;
        e.offset = offset;
        e.expected = std::move(expected);
        e.encoding = wire_encoding::wbxml;
        return e;
    }
    bool fail(std::size_t offset, std::string expected) {
        if (!error_) error_ = error(offset, std::move(expected));
        return false;
    }

    bool byte(std::uint8_t& b, const char* expected) {
        if (pos_ >= in_.size()) return fail(pos_, expected);
        b = static_cast<std::uint8_t>(in_[pos_++]);
        return true;
    }

    bool mb_uint(std::uint32_t& value, const char* expected) {
        value = 0;
        for (int i = 0; i < 5; ++i) {
            std::uint8_t b = 0;
            if (!byte(b, expected)) return false;
            value = (value << 7) | (b & 0x7F);
            if (!(b & 0x80)) return true;
        }
        return fail(pos_, std::string(expected) + " (mb_u_int32 of at most 5 bytes)");
    }

    bool header(wbxml_document& doc) {
        std::uint8_t version = 0;
        if (!byte(version, "WBXML version byte")) return false;
        if (version > 0x03) return fail(0, "WBXML version 1.0-1.3");
        std::uint32_t public_id = 0;
        if (!mb_uint(public_id, "public identifier")) return false;
        std::optional<std::uint32_t> public_id_index;
        if (public_id == 0 && !mb_uint(public_id_index.emplace(), "public identifier string index")) return false;
        std::uint32_t charset = k_charset_utf8;
        if (version >= 0x01 && !mb_uint(charset, "charset")) return false;
        charset_ = charset_name(charset);
        std::uint32_t table_length = 0;
        if (!mb_uint(table_length, "string table length")) return false;
        if (table_length > in_.size() - pos_) return fail(pos_, "string table within input");
        table_ = in_.substr(pos_, table_length);
        pos_ += table_length;
        if (public_id_index) {
            auto id = table_string(*public_id_index);
            if (!id) return fail(pos_, "public identifier index inside string table");
            id_ = public_id_from_string(*id);
        } else {
            id_ = public_id_from_number(public_id);
        }
        if (id_) {
            doc.doc = id_->doc;
            doc.version = id_->version;
        }
        return true;
    }

    // Unknown public ids (0x01, other languages): a SyncML root is token 0x2D, DevInf 0x0A.
    bool guess_doc(wbxml_document& doc) {
        if (id_) {
            doc_ = doc.doc;
            devinf12_ = doc.version == syncml_version::v1_2;
            return true;
        }
        const auto token = static_cast<std::uint8_t>(in_[pos_]) & 0x3F;
        if (token == 0x2D)
            doc_ = wbxml_doc::syncml;
        else if (token == 0x0A)
            doc_ = wbxml_doc::devinf;
        else
            return fail(pos_, "SyncML or DevInf root element");
        doc.doc = doc_;
        return true;
    }

    std::optional<std::string_view> table_string(std::uint32_t index) const {
        if (index >= table_.size()) return std::nullopt;
        const auto end = table_.find('\0', index);
        if (end == std::string_view::npos) return table_.substr(index);
        return table_.substr(index, end - index);
    }

    bool append_text(std::string& out, std::string_view text) {
        if (charset_.empty() || matching::is_ascii(text)) return append_decoded(out, text);
        if (auto utf8 = matching::to_utf8(text, charset_)) return append_decoded(out, *utf8);
        return append_decoded(out, text);
    }

    // Every byte that enters the tree passes here: a string-table reference is 2 bytes of input for a
    // copy of a whole table entry.
    bool append_decoded(std::string& out, std::string_view text) {
        if (!budget_.take(out.size(), text.size())) return fail(pos_, std::string(k_text_limit_expected));
        out.append(text);
        return true;
    }

    bool skip_pis() {
        while (pos_ < in_.size() && static_cast<std::uint8_t>(in_[pos_]) == k_pi) {
            ++pos_;
            if (!attributes()) return false;
        }
        return true;
    }

    // `out` null: skipped (attributes), so nothing is copied or converted for it.
    bool inline_string(std::string* out) {
        const auto end = in_.find('\0', pos_);
        if (end == std::string_view::npos) return fail(in_.size(), "NUL ending inline string");
        const auto text = in_.substr(pos_, end - pos_);
        pos_ = end + 1;
        return !out || append_text(*out, text);
    }

    // `out` null: only the index is checked; a skipped reference must not cost a scan of the table entry.
    bool table_ref(std::string* out) {
        std::uint32_t index = 0;
        const auto at = pos_;
        if (!mb_uint(index, "string table index")) return false;
        if (index >= table_.size()) return fail(at, "string table index inside string table");
        return !out || append_text(*out, *table_string(index));
    }

    bool opaque(std::string* out) {
        std::uint32_t length = 0;
        if (!mb_uint(length, "opaque length")) return false;
        if (length > in_.size() - pos_) return fail(pos_, "opaque data within input");
        const auto data = in_.substr(pos_, length);
        pos_ += length;
        return !out || append_decoded(*out, data);
    }

    // Attribute lists (and PI bodies) carry nothing SyncML needs: parse them to stay in step.
    bool attributes() {
        for (;;) {
            std::uint8_t t = 0;
            if (!byte(t, "attribute or END")) return false;
            switch (t) {
                case k_end:
                    return true;
                case k_switch_page:
                    if (!byte(t, "code page")) return false;
                    break;
                case k_str_i:
                    if (!inline_string(nullptr)) return false;
                    break;
                case k_literal:
                case k_str_t:
                case 0x80:
                case 0x81:
                case 0x82:
                case k_entity:
                    if (!table_ref(nullptr)) return false;
                    break;
                case 0x40:
                case 0x41:
                case 0x42:
                    if (!inline_string(nullptr)) return false;
                    break;
                case k_opaque:
                    if (!opaque(nullptr)) return false;
                    break;
                default:
                    break;
            }
        }
    }

    bool tag_name(codec_node& node, std::uint8_t tag) {
        const auto token = static_cast<std::uint8_t>(tag & 0x3F);
        if (token == k_literal) return table_ref(&node.name);
        auto name = wbxml_tag_name(doc_, page_, token, devinf12_);
        if (name) {
            node.name = std::string(*name);
        } else {
            // Unknown tokens (other code pages, DM DDF) become placeholder elements the model ignores.
            node.name = "unknown-" + std::to_string(page_) + "-" + std::to_string(token);
        }
        if (doc_ == wbxml_doc::syncml && page_ == k_page_metinf) node.ns = codec_ns::metinf;
        return true;
    }

    bool element(codec_node& node, std::size_t depth) {
        if (depth > limits_.max_depth) return fail(pos_, "nesting within depth limit");
        if (++elements_ > limits_.max_elements) return fail(pos_, "element count within limit");
        while (pos_ < in_.size() && static_cast<std::uint8_t>(in_[pos_]) == k_switch_page) {
            pos_ += 1;
            if (!byte(page_, "code page after SWITCH_PAGE")) return false;
        }
        node.offset = pos_;
        std::uint8_t tag = 0;
        if (!byte(tag, "element tag")) return false;
        if ((tag & 0x3F) < 0x04 || tag == k_pi) return fail(node.offset, "element tag");
        if (!tag_name(node, tag)) return false;
        if ((tag & 0x80) && !attributes()) return false;
        if ((tag & 0x40) && !content(node, depth)) return false;
        node.complete = true;
        return true;
    }

    bool entity(std::string& out) {
        std::uint32_t cp = 0;
        if (!mb_uint(cp, "entity code point")) return false;
        std::string utf8;
        matching::append_utf8(utf8, cp);
        return append_decoded(out, utf8);
    }

    bool content(codec_node& node, std::size_t depth) {
        for (;;) {
            if (pos_ >= in_.size()) return fail(pos_, "END of <" + node.name + ">");
            const auto t = static_cast<std::uint8_t>(in_[pos_]);
            if (t == k_end) {
                ++pos_;
                return true;
            }
            if (!content_token(node, depth, t)) return false;
        }
    }

    // One token inside an element: text in any of its forms, a processing instruction or an extension (skipped:
    // SyncML gives them no meaning), or a child element.
    bool content_token(codec_node& node, std::size_t depth, std::uint8_t t) {
        switch (t) {
            case k_str_i:
            case 0x40:  // EXT_I_0..2: an inline string we keep as text
            case 0x41:
            case 0x42:
                ++pos_;
                return inline_string(&node.text);
            case k_str_t:
                ++pos_;
                return table_ref(&node.text);
            case k_opaque:
                ++pos_;
                node.opaque = true;
                return opaque(&node.text);
            case k_entity:
                ++pos_;
                return entity(node.text);
            case k_pi:
                ++pos_;
                return attributes();
            case 0x80:  // EXT_T_0..2: a table reference we skip
            case 0x81:
            case 0x82: {
                ++pos_;
                std::uint32_t ignored = 0;
                return mb_uint(ignored, "extension value");
            }
            case 0xC0:  // EXT_0..2: no value
            case 0xC1:
            case 0xC2:
                ++pos_;
                return true;
            default:
                node.children.emplace_back();
                return element(node.children.back(), depth + 1);
        }
    }

    std::string_view in_;
    const decode_limits& limits_;
    std::size_t depth_used_;
    std::size_t pos_ = 0;
    std::size_t elements_ = 0;
    std::string charset_;  // non-empty: strings are converted from it to UTF-8
    std::string_view table_;
    std::optional<wbxml_public_id> id_;
    wbxml_doc doc_ = wbxml_doc::syncml;
    bool devinf12_ = false;
    std::uint8_t page_ = 0;
    std::optional<decode_error> error_;
    text_budget budget_;
};

}  // namespace

wbxml_document read_wbxml(std::string_view bytes, const decode_limits& limits, std::size_t depth_used) {
    return wbxml_reader(bytes, limits, depth_used).run();
}

}  // namespace syncml::session
