#include "src/config/config_values.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <limits>

#include "common/text/ascii_case.hpp"
#include "common/text/trim.hpp"
#include "persistence/pg/conninfo_list.hpp"
#include "src/config/public_url.hpp"

namespace syncml::server {
namespace {

using common::k_white_space;

// Whole-string unsigned number; nullopt on anything else (signs, spaces, overflow).
std::optional<std::uint64_t> whole_number(const std::string& text) {
    std::uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// Splits "123ms" into 123 and "ms".
std::optional<std::pair<std::uint64_t, std::string>> number_and_unit(const std::string& text) {
    auto digits = std::find_if(text.begin(), text.end(), [](unsigned char c) { return !std::isdigit(c); });
    auto number = whole_number(std::string(text.begin(), digits));
    if (!number) return std::nullopt;
    return std::pair{*number, common::to_lower(std::string(digits, text.end()))};
}

}  // namespace

std::string format_endpoint(const endpoint& value) {
    if (value.host.find(':') != std::string::npos) return "[" + value.host + "]:" + std::to_string(value.port);
    return value.host + ":" + std::to_string(value.port);
}

parsed<endpoint> parse_endpoint(const std::string& text) {
    const std::string hint = "expected host:port (e.g. 0.0.0.0:8080 or [::1]:8080), got '" + text + "'";
    auto colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0) return parsed<endpoint>::fail(hint);
    std::string host = text.substr(0, colon);
    if (host.front() == '[') {
        if (host.size() < 3 || host.back() != ']') return parsed<endpoint>::fail(hint);
        host = host.substr(1, host.size() - 2);
    } else if (host.find(':') != std::string::npos) {
        return parsed<endpoint>::fail(hint);
    }
    auto port = whole_number(text.substr(colon + 1));
    if (!port || *port > 65535) return parsed<endpoint>::fail(hint);
    return {endpoint{host, static_cast<std::uint16_t>(*port)}, {}};
}

parsed<std::string> any_text(const std::string& text) { return {text, {}}; }

parsed<std::string> non_empty(const std::string& text) {
    if (text.empty()) return parsed<std::string>::fail("must not be empty");
    return {text, {}};
}

parsed<bool> parse_bool(const std::string& text) {
    const std::string lower = common::to_lower(text);
    if (lower == "true" || lower == "yes" || lower == "on" || lower == "1") return {true, {}};
    if (lower == "false" || lower == "no" || lower == "off" || lower == "0") return {false, {}};
    return parsed<bool>::fail("expected true or false, got '" + text + "'");
}

parsed<std::uint16_t> port_or_zero(const std::string& text) {
    auto port = whole_number(text);
    if (!port || *port > 65535) return parsed<std::uint16_t>::fail("expected a port 0-65535, got '" + text + "'");
    return {static_cast<std::uint16_t>(*port), {}};
}

parsed<log_format> parse_log_format(const std::string& text) {
    if (text == "text") return {log_format::text, {}};
    if (text == "json") return {log_format::json, {}};
    return parsed<log_format>::fail("expected text or json, got '" + text + "'");
}

parsed<std::string> parse_log_level(const std::string& text) {
    static const std::array<const char*, 7> levels = {"trace", "debug", "info", "warn", "error", "critical", "off"};
    if (std::find(levels.begin(), levels.end(), text) == levels.end()) {
        return parsed<std::string>::fail("expected trace, debug, info, warn, error, critical or off, got '" + text +
                                         "'");
    }
    return {text, {}};
}

parsed<std::string> parse_public_url(const std::string& text) {
    if (text.empty()) return {text, {}};
    auto url = normalize_public_url(text);
    if (!url) {
        return parsed<std::string>::fail(
            "expected http(s)://host[:port] without path or query (e.g. "
            "https://sync.example.com), got '" +
            text + "'");
    }
    return {*url, {}};
}

parsed<std::vector<common::ip_network>> parse_trusted_proxies(const std::string& text) {
    std::vector<common::ip_network> networks;
    std::size_t start = 0;
    while (start <= text.size()) {
        auto comma = text.find(',', start);
        if (comma == std::string::npos) comma = text.size();
        const std::string item(common::trim(text.substr(start, comma - start), k_white_space));
        start = comma + 1;
        if (item.empty()) continue;
        auto network = common::parse_ip_network(item);
        if (!network) {
            return parsed<std::vector<common::ip_network>>::fail(
                "expected comma-separated IP addresses or networks with zero host bits (e.g. 10.0.0.0/8, ::1), "
                "got '" +
                item + "'");
        }
        networks.push_back(std::move(*network));
    }
    return {std::move(networks), {}};
}

parsed<std::vector<std::string>> parse_host_list(const std::string& text) {
    std::vector<std::string> hosts;
    std::size_t start = 0;
    while (start <= text.size()) {
        auto comma = text.find(',', start);
        if (comma == std::string::npos) comma = text.size();
        std::string item = common::to_lower(common::trim(text.substr(start, comma - start), k_white_space));
        start = comma + 1;
        if (item.size() >= 2 && item.front() == '[' && item.back() == ']') item = item.substr(1, item.size() - 2);
        if (item.empty()) continue;
        const bool plain = std::all_of(item.begin(), item.end(), [](unsigned char c) {
            return std::isalnum(c) || c == '.' || c == '-' || c == '_' || c == ':' || c == '*';
        });
        if (!plain) {
            return parsed<std::vector<std::string>>::fail("expected comma-separated host names without port, got '" +
                                                          item + "'");
        }
        hosts.push_back(std::move(item));
    }
    return {std::move(hosts), {}};
}

std::string format_host_list(const std::vector<std::string>& hosts) {
    std::string out;
    for (const auto& host : hosts) out += (out.empty() ? "" : ",") + host;
    return out;
}

std::string format_trusted_proxies(const std::vector<common::ip_network>& networks) {
    std::string out;
    for (const auto& network : networks) out += (out.empty() ? "" : ",") + network.text;
    return out;
}

std::function<parsed<unsigned>(const std::string&)> unsigned_in(unsigned low, unsigned high) {
    return [low, high](const std::string& text) {
        auto value = whole_number(text);
        if (!value || *value < low || *value > high) {
            return parsed<unsigned>::fail("expected a whole number " + std::to_string(low) + "-" +
                                          std::to_string(high) + ", got '" + text + "'");
        }
        return parsed<unsigned>{static_cast<unsigned>(*value), {}};
    };
}

std::function<parsed<std::size_t>(const std::string&)> size_in(std::size_t low, std::size_t high) {
    return [low, high](const std::string& text) {
        const auto fail =
            parsed<std::size_t>::fail("expected a size " + std::to_string(low) + "-" + std::to_string(high) +
                                      " bytes (k/m suffix allowed), got '" + text + "'");
        auto parts = number_and_unit(text);
        if (!parts) return fail;
        std::uint64_t scale = parts->second.empty()  ? 1
                              : parts->second == "k" ? 1024
                              : parts->second == "m" ? 1 << 20
                                                     : 0;
        if (scale == 0 || parts->first > std::numeric_limits<std::uint64_t>::max() / scale) return fail;
        const std::uint64_t bytes = parts->first * scale;
        if (bytes < low || bytes > high) return fail;
        return parsed<std::size_t>{static_cast<std::size_t>(bytes), {}};
    };
}

std::function<parsed<std::chrono::milliseconds>(const std::string&)> duration_in(std::int64_t low, std::int64_t high) {
    return [low, high](const std::string& text) {
        using result = parsed<std::chrono::milliseconds>;
        const auto fail =
            result::fail("expected a duration " + format_duration(std::chrono::milliseconds(low)) + " to " +
                         format_duration(std::chrono::milliseconds(high)) + " (units ms, s, m, h), got '" + text + "'");
        auto parts = number_and_unit(text);
        if (!parts || parts->first > 1'000'000'000) return fail;
        const auto& unit = parts->second;
        std::int64_t scale = unit == "ms"                    ? 1
                             : (unit.empty() || unit == "s") ? 1000
                             : unit == "m"                   ? 60'000
                             : unit == "h"                   ? 3'600'000
                                                             : 0;
        const auto ms = static_cast<std::int64_t>(parts->first) * scale;
        if (scale == 0 || ms < low || ms > high) return fail;
        return result{std::chrono::milliseconds(ms), {}};
    };
}

parsed<std::pair<std::string, std::string>> parse_config_line(const std::string& line) {
    using result = parsed<std::pair<std::string, std::string>>;
    const std::string text(common::trim(line, k_white_space));
    if (text.empty() || text.front() == '#') return {};
    auto equals = text.find('=');
    if (equals == std::string::npos) return result::fail("expected 'key = value', got '" + text + "'");
    std::string key(common::trim(text.substr(0, equals), k_white_space));
    std::string value(common::trim(text.substr(equals + 1), k_white_space));
    if (key.empty()) return result::fail("missing key before '='");
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    return {std::pair{key, value}, {}};
}

std::string format_duration(std::chrono::milliseconds value) {
    const auto ms = value.count();
    if (ms != 0 && ms % 3'600'000 == 0) return std::to_string(ms / 3'600'000) + "h";
    if (ms != 0 && ms % 60'000 == 0) return std::to_string(ms / 60'000) + "m";
    if (ms % 1000 == 0) return std::to_string(ms / 1000) + "s";
    return std::to_string(ms) + "ms";
}

std::string mask_database_url(const std::string& url) { return persistence::mask_conninfo_list(url); }

}  // namespace syncml::server
