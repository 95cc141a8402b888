#pragma once
// The content-line layer shared by vCard, vCalendar, iCalendar and vNote: unfolding, quoted-printable, charsets,
// parameter syntax on input; escaping, charset marking and folding on output.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "matching/model/item.hpp"
#include "matching/model/result.hpp"

namespace syncml::matching {

// legacy: vCard 2.1, vCalendar 1.0, vNote 1.1 (QP, CHARSET, bare parameters). modern: vCard 3.0/4.0, iCalendar 2.0.
enum class line_syntax { legacy, modern };

// How legacy output writes TYPE: vCard 2.1 peers expect the bare values (TEL;HOME;VOICE:); vCalendar 1.0 and
// vNote peers (the 1.0 spec's examples, Symbian, Synthesis profiles) write the name (AALARM;TYPE=WAVE:) except
// for a property the spec gives no TYPE, whose bare words are flags. Modern output always names it.
enum class type_params { named, bare };

struct content_line {
    std::string group;
    std::string name;  // upper case
    std::vector<param> params;
    // Decoded to UTF-8, raw line breaks turned into the \n escape; otherwise escaped as the input had it.
    // Base64 values stay base64 text (whitespace removed).
    std::string value;
    int line = 0;
};

// Bounds on one item, for data from devices (issue 15). Real items have tens of lines, a few parameters per line
// and three levels of BEGIN (VCALENDAR > VEVENT > VALARM). The caps keep what a hostile item of 1 MB (16 MB as a
// large object) costs to a small multiple of its size, and the component tree shallow enough for the recursive
// walks. An item over a cap is a malformed item.
struct parse_limits {
    std::size_t max_lines = 10000;          // logical content lines
    std::size_t max_params_per_line = 100;  // parameter values of one line (TEL;HOME;VOICE and TYPE=HOME,VOICE: 2)
    std::size_t max_params = 20000;         // parameter values of the whole item
    std::size_t max_depth = 16;             // BEGIN nesting
};

// Splits into logical lines. Tolerates LF/CRLF/CR, folding with space or tab, QP soft breaks (and QP values
// broken across lines without them), base64 bodies without fold indentation, blank lines, a UTF-8 BOM.
// Runs in time linear in the size of `data`.
result<std::vector<content_line>> read_content_lines(std::string_view data, const parse_limits& limits = {});

// Legacy values into the model's escaped form (the same escapes, plus a dangling backslash made literal).
std::string legacy_to_modern_escapes(std::string_view value);

const param* find_param(const std::vector<param>& params, std::string_view name);
bool has_type(const std::vector<param>& params, std::string_view type);  // TYPE=x or bare x, case-insensitive

// Text escaping in modern form.
// Legacy text keeps commas literal: 2.1 readers show a backslash otherwise.
std::string escape_text(std::string_view text, bool escape_commas = true);
std::string unescape_text(std::string_view text);
// A list value (CATEGORIES, ADR, EXDATE, ...) of more parts than this only comes from a hostile item: a megabyte
// of separators would otherwise become a million strings (issue 15).
constexpr std::size_t k_max_list_parts = 10000;
// Splits on unescaped `sep` without unescaping the parts, into at most `max_parts`: the rest of the value stays
// in the last part, separators and all.
std::vector<std::string> split_escaped(std::string_view value, char sep, std::size_t max_parts = k_max_list_parts);

class content_writer {
  public:
    explicit content_writer(line_syntax syntax, type_params types = type_params::named)
        : syntax_(syntax), types_(types) {}

    // `value` in modern escaped form. Legacy output gets CHARSET=UTF-8 for non-ASCII and quoted-printable for
    // line breaks and long values; modern output is folded at 75 octets without splitting UTF-8 sequences.
    void write(std::string_view group, std::string_view name, const std::vector<param>& params,
               std::string_view value) {
        write(group, name, params, value, types_);
    }
    // With this line's own TYPE form, for a legacy property whose bare words are not the writer's usual TYPE.
    void write(std::string_view group, std::string_view name, const std::vector<param>& params, std::string_view value,
               type_params types);
    void write(std::string_view name, std::string_view value) { write({}, name, {}, value); }
    // Base64 value (already encoded); legacy gets ENCODING=BASE64 and the blank line 2.1 readers expect.
    void write_base64(std::string_view group, std::string_view name, std::vector<param> params,
                      std::string_view base64);

    std::string take() { return std::move(out_); }

  private:
    void write_params(std::string& line, const std::vector<param>& params, type_params types) const;
    void fold(std::string_view line);

    line_syntax syntax_;
    type_params types_;
    std::string out_;
};

}  // namespace syncml::matching
