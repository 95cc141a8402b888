#include "src/admin/common/tenant_options.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace syncml::server {
namespace {

struct option_doc {
    const char* name;
    const char* values;
};

const std::vector<option_doc>& docs() {
    static const std::vector<option_doc> table = {
        {"--conflict-policy", "merge|server-wins|client-wins|newest-wins|duplicate"},
        {"--session-binding", "token|token-or-address"},
        {"--auth-basic", "on|off"},
        {"--auth-md5", "on|off"},
        {"--dav", "on|off"},
        {"--max-sessions", "N"},
        {"--max-devices-per-user", "N"},
        {"--max-items-per-datastore", "N"},
        {"--max-message-bytes", "N"},
        {"--max-object-bytes", "N"},
        {"--max-user-bytes", "BYTES"},
        {"--push", "on|off"},
        {"--push-daily-budget", "N"},
        {"--tombstone-retention-days", "N"},
        {"--window-past-days", "DAYS"},
        {"--window-future-days", "DAYS"},
        {"--window-max-items", "N"},
        {"--window-max-photo-bytes", "BYTES"},
    };
    return table;
}

bool parse_switch(const std::string& option, const std::string& value) {
    if (value == "on" || value == "true" || value == "yes") return true;
    if (value == "off" || value == "false" || value == "no") return false;
    throw std::invalid_argument(option + " '" + value + "' (expected on or off)");
}

int parse_count(const std::string& option, const std::string& value) {
    int n = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc{} || end != value.data() + value.size() || value.empty()) {
        throw std::invalid_argument(option + " '" + value + "' (expected a whole number up to 2147483647)");
    }
    return n;
}

// A number of bytes that may pass 2^31 (a quota of gigabytes).
std::int64_t parse_bytes(const std::string& option, const std::string& value) {
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc{} || end != value.data() + value.size() || value.empty()) {
        throw std::invalid_argument(option + " '" + value + "' (expected a whole number of bytes)");
    }
    return n;
}

const char* on_off(bool on) { return on ? "on" : "off"; }

}  // namespace

const std::vector<const char*>& tenant_option_names() {
    static const std::vector<const char*> names = [] {
        std::vector<const char*> out;
        for (const auto& d : docs()) out.push_back(d.name);
        return out;
    }();
    return names;
}

std::string tenant_options_usage(const std::string& indent) {
    std::string text;
    for (const auto& d : docs()) text += indent + "[" + d.name + " " + d.values + "]\n";
    return text;
}

const std::vector<const char*>& window_option_names() {
    static const std::vector<const char*> names = {"--window-past-days", "--window-future-days", "--window-max-items",
                                                   "--window-max-photo-bytes"};
    return names;
}

bool is_window_option(const std::string& option) {
    const auto& names = window_option_names();
    return std::find(names.begin(), names.end(), option) != names.end();
}

void apply_window_option(persistence::sync_window& window, const std::string& option, const std::string& value) {
    if (option == "--window-past-days") {
        window.past_days = parse_count(option, value);
    } else if (option == "--window-future-days") {
        window.future_days = parse_count(option, value);
    } else if (option == "--window-max-items") {
        window.max_items = parse_count(option, value);
    } else if (option == "--window-max-photo-bytes") {
        window.max_photo_bytes = parse_count(option, value);
    } else {
        throw std::invalid_argument("unknown sync window option " + option);
    }
}

void apply_tenant_option(persistence::tenant_settings& settings, const std::string& option, const std::string& value) {
    if (option == "--conflict-policy") {
        auto policy = persistence::parse_conflict_policy(value);
        if (!policy) {
            throw std::invalid_argument("conflict policy '" + value +
                                        "' (expected merge, server-wins, client-wins, newest-wins or duplicate)");
        }
        settings.on_conflict = *policy;
    } else if (option == "--session-binding") {
        auto binding = persistence::parse_session_binding(value);
        if (!binding)
            throw std::invalid_argument("session binding '" + value + "' (expected token or token-or-address)");
        settings.binding = *binding;
    } else if (option == "--auth-basic") {
        settings.auth_basic = parse_switch(option, value);
    } else if (option == "--auth-md5") {
        settings.auth_md5 = parse_switch(option, value);
    } else if (option == "--dav") {
        settings.dav = parse_switch(option, value);
    } else if (option == "--max-sessions") {
        settings.max_sessions = parse_count(option, value);
    } else if (option == "--max-devices-per-user") {
        settings.max_devices_per_user = parse_count(option, value);
    } else if (option == "--max-items-per-datastore") {
        settings.max_items_per_datastore = parse_count(option, value);
    } else if (option == "--max-message-bytes") {
        settings.max_message_bytes = parse_count(option, value);
    } else if (option == "--max-object-bytes") {
        settings.max_object_bytes = parse_count(option, value);
    } else if (option == "--max-user-bytes") {
        settings.max_user_bytes = parse_bytes(option, value);
    } else if (option == "--push") {
        settings.push = parse_switch(option, value);
    } else if (option == "--push-daily-budget") {
        settings.push_daily_budget = parse_count(option, value);
    } else if (option == "--tombstone-retention-days") {
        settings.tombstone_retention_days = parse_count(option, value);
    } else if (is_window_option(option)) {
        apply_window_option(settings.window, option, value);
    } else {
        throw std::invalid_argument("unknown tenant option " + option);
    }
}

std::string describe_tenant_settings(const persistence::tenant_settings& s, const std::string& separator) {
    return "conflict=" + std::string(persistence::to_string(s.on_conflict)) + separator +
           "session-binding=" + std::string(persistence::to_string(s.binding)) + separator +
           "auth-basic=" + on_off(s.auth_basic) + separator + "auth-md5=" + on_off(s.auth_md5) + separator +
           "dav=" + on_off(s.dav) + separator + "max-sessions=" + std::to_string(s.max_sessions) + separator +
           "max-devices-per-user=" + std::to_string(s.max_devices_per_user) + separator +
           "max-items-per-datastore=" + std::to_string(s.max_items_per_datastore) + separator +
           "max-message-bytes=" + std::to_string(s.max_message_bytes) + separator +
           "max-object-bytes=" + std::to_string(s.max_object_bytes) + separator +
           "max-user-bytes=" + std::to_string(s.max_user_bytes) + separator + "push=" + on_off(s.push) + separator +
           "push-daily-budget=" + std::to_string(s.push_daily_budget) + separator +
           "tombstone-retention-days=" + std::to_string(s.tombstone_retention_days) + separator + "window-" +
           persistence::describe_window(s.window, separator + "window-");
}

}  // namespace syncml::server
