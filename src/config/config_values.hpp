#pragma once
// Parsers and printers for single configuration values: each returns the value or one error sentence.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "src/config/config.hpp"

namespace syncml::server {

template <typename T>
struct parsed {
    std::optional<T> value;
    std::string error;
    bool ok() const { return error.empty(); }
    static parsed fail(std::string message) { return {std::nullopt, std::move(message)}; }
};

parsed<endpoint> parse_endpoint(const std::string& text);
parsed<std::string> any_text(const std::string& text);
parsed<std::string> non_empty(const std::string& text);
parsed<std::uint16_t> port_or_zero(const std::string& text);
// true/false, yes/no, on/off, 1/0 (any case).
parsed<bool> parse_bool(const std::string& text);
parsed<log_format> parse_log_format(const std::string& text);
parsed<std::string> parse_log_level(const std::string& text);
// http or https URL of scheme, host and optional port only; normalised (see normalize_public_url). Empty is allowed.
parsed<std::string> parse_public_url(const std::string& text);
// Comma-separated IP addresses and CIDR networks; empty is allowed.
parsed<std::vector<common::ip_network>> parse_trusted_proxies(const std::string& text);
std::string format_trusted_proxies(const std::vector<common::ip_network>& networks);
// Comma-separated host names or addresses (IPv6 with or without brackets) or "*", lowercased; empty is allowed.
parsed<std::vector<std::string>> parse_host_list(const std::string& text);
std::string format_host_list(const std::vector<std::string>& hosts);

std::function<parsed<unsigned>(const std::string&)> unsigned_in(unsigned low, unsigned high);
std::function<parsed<std::size_t>(const std::string&)> size_in(std::size_t low, std::size_t high);
// Bounds in milliseconds.
std::function<parsed<std::chrono::milliseconds>(const std::string&)> duration_in(std::int64_t low, std::int64_t high);

// One line of the config file: nullopt value for blank and comment lines.
parsed<std::pair<std::string, std::string>> parse_config_line(const std::string& line);

std::string format_duration(std::chrono::milliseconds value);

}  // namespace syncml::server
