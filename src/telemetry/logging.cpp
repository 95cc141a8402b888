#include "src/telemetry/logging.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>

#include "common/log/log_event.hpp"
#include "common/log/log_value.hpp"

namespace syncml::server {
namespace {

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
    common::escape_log_text(out, text, true);
    out += '"';
}

void json_formatter::format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) {
    std::string line = "{\"ts\":\"" + utc_timestamp(msg.time) + "\",\"level\":";
    const auto level = spdlog::level::to_string_view(msg.level);
    append_json_string(line, std::string_view(level.data(), level.size()));
    const std::string_view payload(msg.payload.data(), msg.payload.size());
    std::string_view text = payload;
    // Only the event whose text this is: a line logged without log_event() is a message and nothing else.
    const auto* event = common::current_log_event();
    if (event && event->text.data() == payload.data() && event->text.size() == payload.size()) {
        for (const auto& field : event->fields) {
            line += ',';
            append_json_string(line, field.key());
            line += ':';
            if (field.type() == common::log_field::kind::string) {
                append_json_string(line, field.value());
            } else {
                line += field.value();
            }
        }
        text = event->message;
    }
    line += ",\"msg\":";
    append_json_string(line, text);
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
