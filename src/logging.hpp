#pragma once
// The process logger: human-readable lines by default, one JSON object per line for containers. Messages
// carry their context as `key=value` words; the JSON format turns those words into fields of their own.

#include <memory>
#include <string>

#include <spdlog/formatter.h>
#include <spdlog/logger.h>

#include "src/config.hpp"

namespace syncml::server {

std::shared_ptr<spdlog::logger> make_logger(const log_config& config);

class json_formatter : public spdlog::formatter {
  public:
    void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override;
    std::unique_ptr<spdlog::formatter> clone() const override;
};

// Appends text as a JSON string literal (quotes included).
void append_json_string(std::string& out, std::string_view text);

}  // namespace syncml::server
