#pragma once
// The table of settings (config.hpp): one entry per key with its environment variable, its help line, and how it
// is parsed into and printed from server_config. parse_config, --print-config and --help all read this table.
// Also the SYNCML_* names that are no setting but belong to the tools and tests around the server, which an
// environment may hold without stopping it (reserved_variables).

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "src/config/config.hpp"
#include "src/config/config_values.hpp"

namespace syncml::server {

using config_setter = std::function<std::optional<std::string>(server_config&, const std::string&)>;
using config_getter = std::function<std::string(const server_config&)>;

struct config_key {
    const char* name;  // in the config file
    const char* env;   // the environment variable
    const char* help;
    bool secret;  // a database URL: printed with its passwords masked
    config_setter set;
    config_getter get;
};

// Every key, in the order --help and --print-config show them.
const std::vector<config_key>& config_keys();

// A SYNCML_* name the server does not read as a setting but tolerates in its environment: what test.sh, the
// integration and load test scripts and the compose file use. A prefix covers every name that starts with it.
struct reserved_variable {
    const char* name;
    bool prefix;
    const char* user;  // who reads it
};

const std::vector<reserved_variable>& reserved_variables();
bool is_reserved_variable(const std::string& name);

// The areas of the table (config_keys.cpp, config_keys_edge.cpp).
std::vector<config_key> listener_keys();
std::vector<config_key> request_keys();
std::vector<config_key> database_keys();
std::vector<config_key> log_and_login_keys();
std::vector<config_key> session_keys();
std::vector<config_key> edge_keys();
std::vector<config_key> push_keys();

namespace config_key_detail {

inline std::string to_string(std::chrono::milliseconds value) { return format_duration(value); }
inline std::string to_string(const std::string& value) { return value; }
inline std::string to_string(const endpoint& value) { return format_endpoint(value); }
inline std::string to_string(log_format value) { return value == log_format::json ? "json" : "text"; }
inline std::string to_string(bool value) { return value ? "true" : "false"; }
inline std::string to_string(const std::vector<common::ip_network>& value) { return format_trusted_proxies(value); }
inline std::string to_string(const std::vector<std::string>& value) { return format_host_list(value); }
template <typename T>
requires(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) std::string to_string(T value) {
    return std::to_string(value);
}

}  // namespace config_key_detail

// The setter of server_config.*area.*member from a value parser (config_values.hpp).
template <typename T>
config_setter assign(T server_config::*area, auto T::*member, auto parse) {
    return [area, member, parse](server_config& config, const std::string& text) -> std::optional<std::string> {
        auto value = parse(text);
        if (!value.ok()) return value.error;
        config.*area.*member = *value.value;
        return std::nullopt;
    };
}

// The getter that prints server_config.*area.*member as the file would spell it.
template <typename T>
config_getter read(T server_config::*area, auto T::*member) {
    return [area, member](const server_config& config) {
        using config_key_detail::to_string;
        return to_string(config.*area.*member);
    };
}

}  // namespace syncml::server
