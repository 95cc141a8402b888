#pragma once
// The process logger: human-readable lines by default, one JSON object per line for containers. Lines with
// context are written with common::log_event() (a message and fields): the text format shows the fields as
// `key=value` words, the JSON format as fields of their own, taken from the event and never parsed back from
// the text. Neither format lets a logged value break the line.

#include <memory>
#include <string>

#include <spdlog/formatter.h>
#include <spdlog/logger.h>

#include "src/config/config.hpp"

namespace syncml::server {

std::shared_ptr<spdlog::logger> make_logger(const log_config& config);

class json_formatter : public spdlog::formatter {
  public:
    void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override;
    std::unique_ptr<spdlog::formatter> clone() const override;
};

// The text pattern, with control characters in the message escaped (\n, \xHH).
class text_formatter : public spdlog::formatter {
  public:
    text_formatter();
    void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override;
    std::unique_ptr<spdlog::formatter> clone() const override;

  private:
    static constexpr const char* k_text_pattern = "%Y-%m-%dT%H:%M:%S.%e%z %^%-5l%$ %v";
    std::unique_ptr<spdlog::formatter> pattern_;
};

// Appends text as a JSON string literal (quotes included).
void append_json_string(std::string& out, std::string_view text);

}  // namespace syncml::server
