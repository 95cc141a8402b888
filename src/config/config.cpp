#include "src/config/config.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/text/closest_word.hpp"
#include "src/config/config_keys.hpp"
#include "src/config/config_values.hpp"

extern char** environ;

namespace syncml::server {
namespace {

constexpr const char* k_allow_unknown = "SYNCML_ALLOW_UNKNOWN";

const config_key* find_key(const std::string& name) {
    const auto& table = config_keys();
    auto found = std::find_if(table.begin(), table.end(), [&](const config_key& k) { return name == k.name; });
    return found == table.end() ? nullptr : &*found;
}

bool is_setting_variable(const std::string& name) {
    const auto& table = config_keys();
    return std::any_of(table.begin(), table.end(), [&](const config_key& key) { return name == key.env; });
}

// Where unknown names go: errors, or with SYNCML_ALLOW_UNKNOWN warnings.
struct unknown_names {
    bool allowed = false;
    std::vector<std::string>& errors;
    std::vector<std::string>& warnings;

    // what: "environment X: no such setting"; suggestion: "; did you mean Y?" or empty.
    void report(const std::string& what, const std::string& suggestion) {
        if (allowed) {
            warnings.push_back(what + ", ignored as " + k_allow_unknown + " is set" + suggestion);
        } else {
            errors.push_back(what + suggestion + " (" + k_allow_unknown + "=1 starts anyway; --help lists the names)");
        }
    }
};

std::string did_you_mean(const std::string& word, const std::vector<std::string>& names) {
    const auto match = common::closest_word(word, names);
    return match ? "; did you mean " + *match + "?" : std::string();
}

// A file key is compared with the keys and, spelled like a variable (SYNCML_LISTEN), with their variables.
std::string suggest_file_key(const std::string& key) {
    std::vector<std::string> names;
    for (const auto& entry : config_keys()) names.emplace_back(entry.name);
    if (key.starts_with("SYNCML_") || key.starts_with("syncml_")) {
        if (const auto match = common::closest_word(key.substr(7), names)) return "; did you mean " + *match + "?";
    }
    return did_you_mean(key, names);
}

std::string suggest_variable(const std::string& name) {
    std::vector<std::string> names;
    for (const auto& entry : config_keys()) names.emplace_back(entry.env);
    return did_you_mean(name, names);
}

void apply(server_config& config, const config_key& key, const std::string& value, const std::string& origin,
           std::vector<std::string>& errors) {
    if (auto error = key.set(config, value)) {
        errors.push_back(origin + ": " + key.name + ": " + *error);
    }
}

void apply_file(server_config& config, const config_sources& sources, std::vector<std::string>& errors,
                unknown_names& unknown) {
    std::istringstream lines(sources.file_text);
    std::string line;
    const std::string file = sources.file_path.value_or("config");
    for (int number = 1; std::getline(lines, line); ++number) {
        const std::string where = file + ":" + std::to_string(number);
        auto entry = parse_config_line(line);
        if (!entry.ok()) {
            errors.push_back(where + ": " + entry.error);
        } else if (entry.value) {
            const std::string& name = entry.value->first;
            if (const config_key* key = find_key(name)) {
                apply(config, *key, entry.value->second, where, errors);
            } else {
                unknown.report(where + ": unknown key '" + name + "'", suggest_file_key(name));
            }
        }
    }
}

bool same_port(const endpoint& a, const endpoint& b) {
    return a.port == b.port && (a.host == b.host || a.host == "0.0.0.0" || b.host == "0.0.0.0");
}

void check_consistency(const server_config& config, std::vector<std::string>& errors) {
    if (config.http.tls_cert.empty() != config.http.tls_key.empty()) {
        errors.push_back("tls_cert/tls_key: set both (HTTPS) or neither (plain HTTP)");
    }
    const auto& http = config.http.listen;
    const auto& metrics = config.metrics.listen;
    if (same_port(http, metrics)) {
        errors.push_back("metrics_listen: must not use the same port as listen (" + format_endpoint(http) + ")");
    }
    if (const auto& admin = config.admin.listen;
        admin && admin->port != 0 && (same_port(*admin, http) || same_port(*admin, metrics))) {
        errors.push_back("admin_listen: must not use the same port as listen or metrics_listen");
    }
}

void check_variables(const config_sources& sources, unknown_names& unknown) {
    for (const auto& [name, value] : sources.environment) {
        if (!is_setting_variable(name) && !is_reserved_variable(name)) {
            unknown.report("environment " + name + ": no such setting", suggest_variable(name));
        }
    }
}

// SYNCML_ALLOW_UNKNOWN: a boolean; a malformed value is an error of its own (and allows nothing).
bool allow_unknown(const config_sources& sources, std::vector<std::string>& errors) {
    const auto found = sources.environment.find(k_allow_unknown);
    if (found == sources.environment.end()) return false;
    const auto value = parse_bool(found->second);
    if (!value.ok()) {
        errors.push_back(std::string("environment ") + k_allow_unknown + ": " + value.error);
        return false;
    }
    return *value.value;
}

// The names in lines of at most 110 characters, indented.
std::string wrapped(const std::vector<std::string>& words) {
    std::string out;
    std::string line = "  ";
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string word = words[i] + (i + 1 < words.size() ? "," : "");
        if (line.size() > 2 && line.size() + 1 + word.size() > 110) {
            out += line + "\n";
            line = "  ";
        }
        line += (line.size() > 2 ? " " : "") + word;
    }
    return out + line + "\n";
}

std::string reserved_help() {
    std::vector<std::string> names;
    for (const auto& name : reserved_variables()) names.push_back(std::string(name.name) + (name.prefix ? "*" : ""));
    return "\nunknown names: a SYNCML_* environment variable or a config file key that is no setting stops every\n"
           "command (exit 2, with the nearest name as a suggestion); SYNCML_ALLOW_UNKNOWN=1 makes it a warning.\n"
           "These names belong to the tests and tools around the server and are never an error (* any ending):\n" +
           wrapped(names);
}

}  // namespace

config_result parse_config(const config_sources& sources) {
    config_result result;
    unknown_names unknown{allow_unknown(sources, result.errors), result.errors, result.warnings};
    apply_file(result.config, sources, result.errors, unknown);
    for (const auto& key : config_keys()) {
        auto env = sources.environment.find(key.env);
        if (env != sources.environment.end()) {
            apply(result.config, key, env->second, std::string("environment ") + key.env, result.errors);
        }
    }
    check_variables(sources, unknown);
    if (result.errors.empty()) check_consistency(result.config, result.errors);
    return result;
}

config_sources load_config_sources(const std::optional<std::string>& file_path) {
    config_sources sources;
    sources.file_path = file_path;
    if (file_path) {
        std::ifstream in(*file_path);
        if (!in) throw std::runtime_error("cannot read config file " + *file_path);
        std::ostringstream text;
        text << in.rdbuf();
        sources.file_text = text.str();
    }
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        std::string item(*entry);
        auto equals = item.find('=');
        if (item.starts_with("SYNCML_") && equals != std::string::npos) {
            sources.environment.emplace(item.substr(0, equals), item.substr(equals + 1));
        }
    }
    return sources;
}

std::string print_config(const server_config& config) {
    std::string out;
    for (const auto& key : config_keys()) {
        std::string value = key.get(config);
        if (key.secret) value = mask_database_url(value);
        out += std::string(key.name) + " = " + value + "\n";
    }
    return out;
}

std::string config_help() {
    const server_config defaults;
    std::string out;
    for (const auto& key : config_keys()) {
        out += "  " + std::string(key.name) + " (" + key.env + ", default '" + key.get(defaults) + "')\n      " +
               key.help + "\n";
    }
    return out + reserved_help();
}

}  // namespace syncml::server
