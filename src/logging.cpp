#include "src/logging.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>

#include "persistence/log_value.hpp"

namespace syncml::server {
namespace {

bool is_key_char(char c) { return (c >= 'a' && c <= 'z') || c == '_'; }

// Length of the `key=` that starts at pos (lower-case letters and '_'), 0 when none does.
std::size_t key_length(std::string_view payload, std::size_t pos) {
    std::size_t end = pos;
    while (end < payload.size() && is_key_char(payload[end])) ++end;
    return end > pos && end < payload.size() && payload[end] == '=' ? end - pos + 1 : 0;
}

// Position just past the quoted string that opens at pos (a '"'), or npos when it is not closed.
std::size_t quoted_end(std::string_view payload, std::size_t pos) {
    for (std::size_t i = pos + 1; i < payload.size(); ++i) {
        if (payload[i] == '\\') {
            ++i;
        } else if (payload[i] == '"') {
            return i + 1;
        }
    }
    return std::string_view::npos;
}

bool read_hex4(std::string_view digits, unsigned& code) {
    code = 0;
    for (const char c : digits) {
        const unsigned digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : 16;
        if (digit == 16) return false;
        code = code * 16 + digit;
    }
    return true;
}

void append_utf8(std::string& out, unsigned code) {
    if (code < 0x80) {
        out += static_cast<char>(code);
    } else if (code < 0x800) {
        out += static_cast<char>(0xc0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3f));
    } else {
        out += static_cast<char>(0xe0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (code & 0x3f));
    }
}

// The value inside the quotes of a persistence::log_value(): its escapes undone, except \xHH (a byte that was
// not UTF-8), which stays as text so that the JSON line remains valid UTF-8.
std::string unquote(std::string_view quoted) {
    std::string out;
    for (std::size_t i = 1; i + 1 < quoted.size(); ++i) {
        const char c = quoted[i];
        if (c != '\\' || i + 2 >= quoted.size()) {
            out += c;
            continue;
        }
        const char next = quoted[++i];
        unsigned code = 0;
        if (next == 'n') {
            out += '\n';
        } else if (next == 'r') {
            out += '\r';
        } else if (next == 't') {
            out += '\t';
        } else if (next == 'u' && i + 5 < quoted.size() && read_hex4(quoted.substr(i + 1, 4), code)) {
            append_utf8(out, code);
            i += 4;
        } else if (next == '"' || next == '\\') {
            out += next;
        } else {
            out += '\\';
            out += next;
        }
    }
    return out;
}

// Reads the `key=value` lines that log_value() makes unambiguous: a quoted value ends at its closing quote
// and is one field however many spaces or `key=` it contains; a quoted string outside a field (an error text)
// is one word of the message. Anything after a closing quote up to the next space (e.g. the ':' of
// "device={}: ...") stays in the message.
class payload_reader {
  public:
    explicit payload_reader(std::string_view payload) : payload_(payload) {}

    std::string json_fields() {
        std::string fields;
        while (pos_ < payload_.size()) {
            if (payload_[pos_] == ' ') {
                ++pos_;
            } else if (const std::size_t key = key_length(payload_, pos_)) {
                read_field(fields, key);
            } else {
                read_word(pos_);
            }
        }
        return fields;
    }
    const std::string& text() const { return text_; }

  private:
    std::size_t word_end(std::size_t from) const {
        const std::size_t space = payload_.find(' ', from);
        return space == std::string_view::npos ? payload_.size() : space;
    }
    void read_word(std::size_t start) {
        std::size_t end = word_end(start);
        if (start < payload_.size() && payload_[start] == '"') {
            const std::size_t close = quoted_end(payload_, start);
            if (close != std::string_view::npos) end = word_end(close);
        }
        if (end > start) {
            if (!text_.empty()) text_ += ' ';
            text_.append(payload_.substr(start, end - start));
        }
        pos_ = end;
    }
    void read_field(std::string& fields, std::size_t key) {
        const std::size_t value_start = pos_ + key;
        std::size_t value_end = word_end(value_start);
        std::string value;
        const std::size_t close = value_start < payload_.size() && payload_[value_start] == '"'
                                      ? quoted_end(payload_, value_start)
                                      : std::string_view::npos;
        if (close != std::string_view::npos) {
            value = unquote(payload_.substr(value_start, close - value_start));
            value_end = close;
        } else {
            value = payload_.substr(value_start, value_end - value_start);
        }
        fields += ',';
        append_json_string(fields, payload_.substr(pos_, key - 1));
        fields += ':';
        append_json_string(fields, value);
        pos_ = value_end;
        if (pos_ < payload_.size() && payload_[pos_] != ' ') read_word(pos_);
    }

    std::string_view payload_;
    std::size_t pos_ = 0;
    std::string text_;
};

std::string utc_timestamp(std::chrono::system_clock::time_point time) {
    const auto seconds = std::chrono::time_point_cast<std::chrono::seconds>(time);
    const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(time - seconds).count();
    const std::time_t t = std::chrono::system_clock::to_time_t(seconds);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                  utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(millis));
    return buffer;
}

bool is_ascii_control(char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }

// Only control characters: quotes and backslashes belong to the log_value() quoting already in the payload.
std::string escape_controls(std::string_view payload) {
    std::string out;
    for (const char c : payload) {
        if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (is_ascii_control(c)) {
            char buffer[8];
            std::snprintf(buffer, sizeof buffer, "\\x%02x", static_cast<unsigned>(c));
            out += buffer;
        } else {
            out += c;
        }
    }
    return out;
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
    out += '"';
    persistence::escape_log_text(out, text, true);
    out += '"';
}

void json_formatter::format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) {
    std::string line = "{\"ts\":\"" + utc_timestamp(msg.time) + "\",\"level\":";
    const auto level = spdlog::level::to_string_view(msg.level);
    append_json_string(line, std::string_view(level.data(), level.size()));
    payload_reader reader(std::string_view(msg.payload.data(), msg.payload.size()));
    line += reader.json_fields();
    line += ",\"msg\":";
    append_json_string(line, reader.text());
    line += "}\n";
    dest.append(line.data(), line.data() + line.size());
}

std::unique_ptr<spdlog::formatter> json_formatter::clone() const { return std::make_unique<json_formatter>(); }

text_formatter::text_formatter() : pattern_(std::make_unique<spdlog::pattern_formatter>(k_text_pattern)) {}

void text_formatter::format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) {
    const std::string_view payload(msg.payload.data(), msg.payload.size());
    if (std::none_of(payload.begin(), payload.end(), is_ascii_control)) return pattern_->format(msg, dest);
    // A value that missed log_value() (a library's multi-line error text) still cannot start a line of its own.
    const std::string escaped = escape_controls(payload);
    spdlog::details::log_msg copy = msg;
    copy.payload = spdlog::string_view_t(escaped.data(), escaped.size());
    pattern_->format(copy, dest);
}

std::unique_ptr<spdlog::formatter> text_formatter::clone() const { return std::make_unique<text_formatter>(); }

std::shared_ptr<spdlog::logger> make_logger(const log_config& config) {
    // stderr keeps stdout free for command output (admin lists, --print-config).
    auto logger = std::make_shared<spdlog::logger>("syncml", std::make_shared<spdlog::sinks::stderr_sink_mt>());
    if (config.format == log_format::json) {
        logger->set_formatter(std::make_unique<json_formatter>());
    } else {
        logger->set_formatter(std::make_unique<text_formatter>());
    }
    logger->set_level(spdlog::level::from_str(config.level));
    logger->flush_on(spdlog::level::info);
    return logger;
}

}  // namespace syncml::server
