#include "src/admin/api/admin_api_body.hpp"

#include <algorithm>

#include "src/admin/common/tenant_options.hpp"

namespace syncml::server {
namespace {

// The CLI's option for a JSON member: max_sessions -> --max-sessions.
std::string option_of(std::string_view member) {
    std::string option = "--" + std::string(member);
    std::replace(option.begin(), option.end(), '_', '-');
    return option;
}

bool is_switch(std::string_view member) {
    return member == "auth_basic" || member == "auth_md5" || member == "dav" || member == "push";
}
bool is_word(std::string_view member) { return member == "conflict_policy" || member == "session_binding"; }

// The member's value as the CLI option's text, so that the CLI and the API share one parser (tenant_options.hpp).
std::string option_text(std::string_view member, const json_value& value) {
    const auto wrong_type = [&](const char* expected) {
        return admin_field_error(std::string(member),
                                 std::string(member) + " must be " + expected + ", not " + json_kind_name(value.type));
    };
    if (is_switch(member)) {
        if (value.type != json_value::kind::boolean) throw wrong_type("a boolean");
        return value.boolean ? "on" : "off";
    }
    if (is_word(member)) {
        if (value.type != json_value::kind::string) throw wrong_type("a string");
        return value.text;
    }
    const auto number = value.integer();
    if (!number) throw wrong_type("a whole number");
    return std::to_string(*number);
}

// Every tenant setting as JSON names it, and whether only a token for all tenants may change it: what a tenant costs
// the server (limits, retention) and how its users log in (auth modes, session binding).
struct setting_member {
    std::string_view name;
    bool operators_only;
};
constexpr setting_member k_setting_members[] = {
    {"conflict_policy", false},
    {"session_binding", true},
    {"auth_basic", true},
    {"auth_md5", true},
    {"dav", false},
    {"max_sessions", true},
    {"max_devices_per_user", true},
    {"max_items_per_datastore", true},
    {"max_message_bytes", true},
    {"max_object_bytes", true},
    {"max_user_bytes", true},
    // SMS cost money.
    {"push", true},
    {"push_daily_budget", true},
    {"tombstone_retention_days", true},
    {"window_past_days", false},
    {"window_future_days", false},
    {"window_max_items", false},
    {"window_max_photo_bytes", false},
};

std::vector<std::string_view> setting_names(bool operators_only) {
    std::vector<std::string_view> names;
    for (const auto& member : k_setting_members) {
        if (member.operators_only || !operators_only) names.push_back(member.name);
    }
    return names;
}

}  // namespace

const std::vector<std::string_view>& tenant_setting_members() {
    static const auto members = setting_names(false);
    return members;
}

const std::vector<std::string_view>& operator_setting_members() {
    static const auto members = setting_names(true);
    return members;
}

void require_only(const json_value& body, const std::vector<std::string_view>& allowed) {
    if (body.type != json_value::kind::object) {
        throw admin_field_error("", std::string("the body must be a JSON object, not ") + json_kind_name(body.type));
    }
    for (const auto& [name, value] : body.members) {
        if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
            throw admin_field_error(name, "unknown member " + name);
        }
    }
}

std::string required_string(const json_value& body, std::string_view member) {
    const json_value* value = body.find(member);
    const std::string name(member);
    if (value == nullptr) throw admin_field_error(name, name + " is missing");
    if (value->type != json_value::kind::string) {
        throw admin_field_error(name, name + " must be a string, not " + json_kind_name(value->type));
    }
    if (value->text.empty()) throw admin_field_error(name, name + " is empty");
    return value->text;
}

window_body window_from(const json_value& body) {
    static const std::vector<std::string_view> members = {"window_past_days", "window_future_days", "window_max_items",
                                                          "window_max_photo_bytes", "inherit"};
    require_only(body, members);
    window_body out;
    for (const auto member : members) {
        const json_value* value = body.find(member);
        if (value == nullptr) continue;
        if (member == "inherit") {
            if (value->type != json_value::kind::boolean) {
                throw admin_field_error("inherit",
                                        std::string("inherit must be a boolean, not ") + json_kind_name(value->type));
            }
            out.inherit = value->boolean;
            continue;
        }
        out.options.emplace_back(option_of(member), option_text(member, *value));
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> push_options_from(const json_value& body) {
    require_only(body, {"phone_number", "server_password", "server_nonce", "datastores", "quiet_start", "quiet_end",
                        "time_zone"});
    std::vector<std::pair<std::string, std::string>> options;
    const auto text = [&](std::string_view member, bool nullable) -> std::optional<std::string> {
        const json_value* value = body.find(member);
        if (value == nullptr) return std::nullopt;
        if (nullable && value->type == json_value::kind::null) return std::string("none");
        if (value->type != json_value::kind::string) {
            throw admin_field_error(std::string(member), std::string(member) + " must be a string" +
                                                             (nullable ? " or null" : "") + ", not " +
                                                             json_kind_name(value->type));
        }
        return value->text;
    };
    if (auto phone = text("phone_number", true)) options.emplace_back("--phone", *phone);
    if (auto password = text("server_password", false)) options.emplace_back("--server-password", *password);
    if (auto nonce = text("server_nonce", false)) options.emplace_back("--server-nonce", *nonce);
    if (const json_value* stores = body.find("datastores")) {
        if (stores->type != json_value::kind::array) {
            throw admin_field_error("datastores", "datastores must be an array of names");
        }
        std::string joined;
        for (const auto& item : stores->items) {
            if (item.type != json_value::kind::string || item.text.empty() ||
                item.text.find(',') != std::string::npos) {
                throw admin_field_error("datastores", "datastores must be an array of names");
            }
            joined += (joined.empty() ? "" : ",") + item.text;
        }
        options.emplace_back("--datastores", joined.empty() ? "all" : joined);
    }
    const auto start = text("quiet_start", true);
    const auto end = text("quiet_end", true);
    if (start.has_value() != end.has_value() || (start && (*start == "none") != (*end == "none"))) {
        throw admin_field_error("quiet_start", "quiet_start and quiet_end go together");
    }
    if (start) options.emplace_back("--quiet-hours", *start == "none" ? "none" : *start + "-" + *end);
    if (auto zone = text("time_zone", false)) options.emplace_back("--time-zone", *zone);
    return options;
}

persistence::tenant_settings settings_from(const json_value& body, persistence::tenant_settings base) {
    for (const auto member : tenant_setting_members()) {
        const json_value* value = body.find(member);
        if (value == nullptr) continue;
        try {
            apply_tenant_option(base, option_of(member), option_text(member, *value));
        } catch (const admin_field_error&) {
            throw;
        } catch (const std::invalid_argument& e) {
            throw admin_field_error(std::string(member), e.what());
        }
    }
    return base;
}

}  // namespace syncml::server
