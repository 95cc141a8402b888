#include "src/logging.hpp"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>

#include <spdlog/sinks/stdout_sinks.h>

namespace syncml::server {
namespace {

bool is_field(std::string_view word) {
    auto equals = word.find('=');
    if (equals == 0 || equals == std::string_view::npos) return false;
    for (char c : word.substr(0, equals)) {
        if (!std::islower(static_cast<unsigned char>(c)) && c != '_') return false;
    }
    return true;
}

// True when a key=value field starts at pos.
bool field_starts_at(std::string_view payload, std::size_t pos) {
    const std::size_t end = payload.find(' ', pos);
    return is_field(payload.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
}

// A word ends at a space, except inside a quoted field value (key="a b"), which ends at a quote followed by the
// end or by the next field; quotes inside such a value (as in libpq messages) stay part of it.
std::size_t word_end(std::string_view payload, std::size_t start) {
    const std::size_t space = payload.find(' ', start);
    const std::size_t equals = payload.find('=', start);
    const bool quoted = equals != std::string_view::npos && equals < space && equals + 1 < payload.size() &&
                        payload[equals + 1] == '"' && is_field(payload.substr(start, equals + 1 - start));
    if (quoted) {
        for (std::size_t quote = payload.find('"', equals + 2); quote != std::string_view::npos;
             quote = payload.find('"', quote + 1)) {
            if (quote + 1 == payload.size()) return quote + 1;
            if (payload[quote + 1] == ' ' && field_starts_at(payload, quote + 2)) return quote + 1;
        }
    }
    return space == std::string_view::npos ? payload.size() : space;
}

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

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
    out += '"';
    for (char c : text) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char escaped[8];
                    std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
                    out += escaped;
                } else {
                    out += c;
                }
        }
    }
    out += '"';
}

void json_formatter::format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) {
    const std::string_view payload(msg.payload.data(), msg.payload.size());
    std::string text;
    std::string line = "{\"ts\":\"" + utc_timestamp(msg.time) + "\",\"level\":";
    const auto level = spdlog::level::to_string_view(msg.level);
    append_json_string(line, std::string_view(level.data(), level.size()));
    std::size_t start = 0;
    while (start < payload.size()) {
        const std::size_t end = word_end(payload, start);
        const std::string_view word = payload.substr(start, end - start);
        if (is_field(word)) {
            const auto equals = word.find('=');
            std::string_view value = word.substr(equals + 1);
            if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
                value = value.substr(1, value.size() - 2);
            }
            line += ',';
            append_json_string(line, word.substr(0, equals));
            line += ':';
            append_json_string(line, value);
        } else if (!word.empty()) {
            if (!text.empty()) text += ' ';
            text += word;
        }
        start = end + 1;
    }
    line += ",\"msg\":";
    append_json_string(line, text);
    line += "}\n";
    dest.append(line.data(), line.data() + line.size());
}

std::unique_ptr<spdlog::formatter> json_formatter::clone() const { return std::make_unique<json_formatter>(); }

std::shared_ptr<spdlog::logger> make_logger(const log_config& config) {
    // stderr keeps stdout free for command output (admin lists, --print-config).
    auto logger = std::make_shared<spdlog::logger>("syncml", std::make_shared<spdlog::sinks::stderr_sink_mt>());
    if (config.format == log_format::json) {
        logger->set_formatter(std::make_unique<json_formatter>());
    } else {
        logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e%z %^%-5l%$ %v");
    }
    logger->set_level(spdlog::level::from_str(config.level));
    logger->flush_on(spdlog::level::info);
    return logger;
}

}  // namespace syncml::server
