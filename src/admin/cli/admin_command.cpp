// Parsing the words after "syncml-server admin" into a request (running it: admin_run.cpp).
#include "src/admin/cli/admin_command.hpp"

#include <algorithm>
#include <istream>
#include <map>
#include <sstream>

#include "common/files/operator_file.hpp"
#include "common/text/closest_word.hpp"
#include "src/admin/cli/device_push_command.hpp"
#include "src/admin/cli/device_window_command.hpp"
#include "src/admin/common/tenant_options.hpp"

namespace syncml::server {
namespace {

struct action_syntax {
    const char* noun;
    const char* verb;
    admin_action action;
    std::vector<const char*> required;  // --options, or "NAME" for the one positional word
    std::vector<const char*> optional = {};
};

std::vector<const char*> device_window_options() {
    auto options = window_option_names();
    options.push_back("--inherit");
    options.push_back("--json");
    return options;
}

std::vector<const char*> device_push_options() {
    auto options = device_push_option_names();
    options.push_back("--off");
    options.push_back("--json");
    return options;
}

const std::vector<action_syntax>& syntax() {
    static const std::vector<action_syntax> table = {
        {"tenant", "add", admin_action::tenant_add, {"NAME"}, tenant_option_names()},
        {"tenant", "list", admin_action::tenant_list, {}, {"--json"}},
        {"tenant", "show", admin_action::tenant_show, {"NAME"}, {"--json"}},
        {"tenant", "set", admin_action::tenant_set, {"NAME"}, tenant_option_names()},
        {"tenant", "delete", admin_action::tenant_delete, {"NAME"}, {"--yes", "--force"}},
        {"user", "add", admin_action::user_add, {"--tenant", "--user"}, {"--password", "--password-file"}},
        {"user", "password", admin_action::user_password, {"--tenant", "--user"}, {"--password", "--password-file"}},
        {"user",
         "set-password",
         admin_action::user_password,
         {"--tenant", "--user"},
         {"--password", "--password-file"}},
        {"user", "list", admin_action::user_list, {"--tenant"}, {"--json"}},
        {"user", "show", admin_action::user_show, {"--tenant", "--user"}, {"--json"}},
        {"user", "import", admin_action::user_import, {}, {"NAME", "--tenant", "--user", "--in"}},
        {"user", "export", admin_action::user_export, {"--tenant", "--user", "--out"}},
        {"user", "delete", admin_action::user_delete, {"--tenant", "--user"}, {"--yes"}},
        {"user", "disable", admin_action::user_disable, {"--tenant", "--user"}},
        {"user", "enable", admin_action::user_enable, {"--tenant", "--user"}},
        {"device", "list", admin_action::device_list, {"--tenant", "--user"}, {"--json"}},
        {"device", "show", admin_action::device_show, {"--tenant", "--user", "--device"}, {"--json"}},
        {"device", "reset", admin_action::device_reset, {"--tenant", "--device"}},
        {"device", "delete", admin_action::device_delete, {"--tenant", "--user", "--device"}, {"--yes"}},
        {"device", "window", admin_action::device_window, {"--tenant", "--user", "--device"}, device_window_options()},
        {"device", "push", admin_action::device_push, {"--tenant", "--user", "--device"}, device_push_options()},
        {"device",
         "collection",
         admin_action::device_collection,
         {"--tenant", "--user", "--device"},
         {"--datastore", "--collection", "--default", "--json"}},
        {"session", "list", admin_action::session_list, {"--tenant"}, {"--user", "--json"}},
        {"session", "kill", admin_action::session_kill, {"--tenant", "--session"}, {"--yes"}},
    };
    return table;
}

std::string* field_for(admin_request& request, const std::string& option) {
    if (option == "NAME" && request.action == admin_action::user_import) return &request.file;
    if (option == "--tenant" || option == "NAME") return &request.tenant;
    if (option == "--user") return &request.user;
    if (option == "--password-file") return &request.password_file;
    if (option == "--device") return &request.device;
    if (option == "--session") return &request.session;
    if (option == "--in" || option == "--out") return &request.file;
    if (option == "--datastore") return &request.datastore;
    return nullptr;
}

bool is_flag(const std::string& option);

std::string usage(const action_syntax& s) {
    std::string text = std::string("admin ") + s.noun + " " + s.verb;
    for (const char* option : s.required) text += option[0] == '-' ? std::string(" ") + option + " VALUE" : " NAME";
    for (const char* option : s.optional) {
        text += std::string(" [") + option + (is_flag(option) ? "]" : " VALUE]");
    }
    return text;
}

bool allowed_in(const std::vector<const char*>& options, const std::string& key) {
    return std::find(options.begin(), options.end(), key) != options.end();
}

// Options without a value.
bool is_flag(const std::string& option) {
    return option == "--yes" || option == "--force" || option == "--json" || option == "--inherit" ||
           option == "--off" || option == "--default";
}

bool& flag_of(admin_request& request, const std::string& option) {
    if (option == "--yes") return request.yes;
    if (option == "--force") return request.force;
    if (option == "--inherit") return request.inherit;
    if (option == "--off") return request.off;
    if (option == "--default") return request.to_default;
    return request.json;
}

void assign(admin_request& request, const std::string& key, const std::string& value) {
    if (key == "--password") {
        request.password = value;
    } else if (key == "--collection") {
        request.collection = value;
    } else if (allowed_in(tenant_option_names(), key) || allowed_in(device_push_option_names(), key)) {
        request.tenant_options.emplace_back(key, value);
    } else {
        *field_for(request, key) = value;
    }
}

// What the words of a command must say beyond its syntax: required options, exclusive ones, --yes before a deletion.
std::string check_arguments(const action_syntax& s, std::map<std::string, bool>& seen, admin_request& request) {
    for (const char* option : s.required) {
        if (!seen[option]) return std::string("missing ") + option + "; usage: " + usage(s);
    }
    if (seen["--password"] && seen["--password-file"]) return "--password and --password-file exclude each other";
    const bool destructive = s.action == admin_action::tenant_delete || s.action == admin_action::user_delete ||
                             s.action == admin_action::device_delete;
    if (destructive && !request.yes) {
        return "this deletes data for good; repeat the command with --yes to go ahead; usage: " + usage(s);
    }
    if (s.action == admin_action::user_import) {
        // FILE.csv alone, or a user's items from a directory.
        const bool items = seen["--tenant"] && seen["--user"] && seen["--in"];
        if (items == seen["NAME"] || (!items && (seen["--tenant"] || seen["--user"] || seen["--in"]))) {
            return "usage: admin user import FILE.csv | admin user import --tenant T --user U --in DIR";
        }
        if (items) request.action = admin_action::user_import_items;
    }
    if (s.action == admin_action::session_kill && !request.yes) {
        return "this ends a sync in the middle; repeat the command with --yes to go ahead; usage: " + usage(s);
    }
    if (s.action == admin_action::tenant_set && request.tenant_options.empty()) {
        return "nothing to set: give at least one option; usage: " + usage(s);
    }
    return {};
}

// Reads the words after "admin NOUN VERB" into the request.
std::string read_arguments(const action_syntax& s, const std::vector<std::string>& words, admin_request& request) {
    std::map<std::string, bool> seen;
    for (std::size_t i = 2; i < words.size(); ++i) {
        const std::string& word = words[i];
        const bool is_option = word.starts_with("--");
        const std::string key = is_option ? word : "NAME";
        const bool allowed = allowed_in(s.required, key) || allowed_in(s.optional, key);
        if (!allowed || seen[key]) return "unexpected '" + word + "'; usage: " + usage(s);
        seen[key] = true;
        if (is_flag(key)) {
            flag_of(request, key) = true;
        } else if (is_option) {
            if (i + 1 == words.size()) return word + " needs a value; usage: " + usage(s);
            assign(request, key, words[++i]);
        } else {
            assign(request, key, word);
        }
    }
    return check_arguments(s, seen, request);
}

}  // namespace

admin_parse_result parse_admin(const std::vector<std::string>& words) {
    admin_parse_result result;
    if (words.size() < 2) {
        result.error = "admin needs a subject and an action, e.g. 'admin tenant list' (see admin --help)";
        return result;
    }
    for (const auto& s : syntax()) {
        if (words[0] == s.noun && words[1] == s.verb) {
            result.request.action = s.action;
            result.error = read_arguments(s, words, result.request);
            return result;
        }
    }
    std::vector<std::string> known = {"token create", "token list", "token delete", "audit list"};
    for (const auto& s : syntax()) known.push_back(std::string(s.noun) + " " + s.verb);
    const auto match = common::closest_word(words[0] + " " + words[1], known);
    result.error = "unknown admin command '" + words[0] + " " + words[1] + "'" +
                   (match ? "; did you mean admin " + *match + "?" : std::string()) + " (see admin --help)";
    return result;
}

std::string read_password(admin_request& request, std::istream& in) {
    if (request.action != admin_action::user_add && request.action != admin_action::user_password) return {};
    if (request.password && *request.password != "-") {
        return request.password->empty() ? "empty password" : "";
    }
    std::string line;
    if (!request.password_file.empty()) {
        try {
            std::istringstream file(common::read_input_file(request.password_file));
            std::getline(file, line);
        } catch (const common::file_refused& e) {
            return std::string("cannot read --password-file ") + e.what();
        }
    } else {
        std::getline(in, line);
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) {
        return request.password_file.empty() ? "no password on stdin (one line; or use --password-file FILE)"
                                             : "empty password in " + request.password_file;
    }
    request.password = std::move(line);
    return {};
}

}  // namespace syncml::server
