#include "src/admin/cli/admin_command.hpp"

#include <algorithm>
#include <fstream>
#include <functional>
#include <istream>
#include <map>
#include <ostream>
#include <stdexcept>

#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/errors.hpp"
#include "src/admin/cli/admin_show.hpp"
#include "src/admin/cli/device_window_command.hpp"
#include "src/admin/common/admin_json.hpp"
#include "src/admin/common/tenant_options.hpp"
#include "src/admin/transfer/user_import.hpp"
#include "src/admin/transfer/user_transfer.hpp"

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
    return option == "--yes" || option == "--force" || option == "--json" || option == "--inherit";
}

bool& flag_of(admin_request& request, const std::string& option) {
    if (option == "--yes") return request.yes;
    if (option == "--force") return request.force;
    if (option == "--inherit") return request.inherit;
    return request.json;
}

void assign(admin_request& request, const std::string& key, const std::string& value) {
    if (key == "--password") {
        request.password = value;
    } else if (allowed_in(tenant_option_names(), key)) {
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

void print_tenants(persistence::database& db, bool json, std::ostream& out) {
    if (json) {
        out << tenants_json(persistence::list_tenants(db));
        return;
    }
    for (const auto& tenant : persistence::list_tenants(db)) {
        out << tenant.name << "\t" << describe_tenant_settings(tenant.settings, "\t") << "\n";
    }
}

persistence::tenant_settings settings_with(persistence::tenant_settings settings, const admin_request& r) {
    for (const auto& [option, value] : r.tenant_options) apply_tenant_option(settings, option, value);
    return settings;
}

// Changes only the settings given; the tenant's other settings stay as they are.
void set_tenant(persistence::database& db, const admin_request& r, std::ostream& out) {
    auto tenant = persistence::find_tenant(db, r.tenant);
    if (!tenant) throw persistence::not_found("tenant " + r.tenant);
    auto updated = persistence::update_tenant(db, r.tenant, settings_with(tenant->settings, r));
    out << "tenant " << updated.name << " " << describe_tenant_settings(updated.settings, " ") << "\n";
}

void print_devices(persistence::database& db, const admin_request& r, std::ostream& out) {
    if (r.json) {
        out << devices_json(persistence::list_devices(db, r.tenant, r.user));
        return;
    }
    for (const auto& device : persistence::list_devices(db, r.tenant, r.user)) {
        out << device.device_uri << "\tlast_seen=" << device.last_seen.value_or("never") << "\tstores=" << device.stores
            << "\n";
    }
}

// What became of the md5 secret: md5 auth needs it, and a tenant that turns md5 on later has none until the user
// logs in once with basic auth or gets a new password here.
void print_md5_secret_note(persistence::database& db, const admin_request& r, const persistence::secret_key* md5_key,
                           std::ostream& out) {
    const auto tenant = persistence::find_tenant(db, r.tenant);
    if (!tenant || !tenant->settings.auth_md5) {
        out << "md5 auth is off for tenant " << r.tenant << ": no md5 secret stored (turning md5 on later needs a "
            << "basic-auth login or a new password before md5 logins work)\n";
    } else if (md5_key == nullptr) {
        out << "md5 secret stored, encrypted with the database's own key (set secret_key to keep it elsewhere)\n";
    } else {
        out << "md5 secret stored, encrypted with the configured secret key\n";
    }
}

void print_transfer(const char* what, const transfer_counts& c, const admin_request& r, std::ostream& out) {
    out << c.contacts << " contacts, " << c.events << " events, " << c.tasks << " tasks, " << c.memos << " memos "
        << what << " user " << r.user << " of tenant " << r.tenant << " (" << r.file << ")\n";
}

void print_import(const transfer_counts& c, const admin_request& r, std::ostream& out) {
    print_transfer("imported into", c, r, out);
    out << c.imported.added << " added, " << c.imported.updated << " updated, " << c.imported.unchanged
        << " unchanged, " << c.rejected.size() << " rejected\n";
    for (const auto& why : c.rejected) out << "rejected " << why << "\n";
}

void execute(const admin_request& r, persistence::database& db, std::ostream& out,
             const persistence::secret_key* md5_key) {
    switch (r.action) {
        case admin_action::tenant_add:
            out << "tenant " << persistence::add_tenant(db, r.tenant, settings_with({}, r)).name << " added\n";
            break;
        case admin_action::tenant_list:
            print_tenants(db, r.json, out);
            break;
        case admin_action::tenant_show:
            show_tenant(db, r.tenant, r.json, out);
            break;
        case admin_action::tenant_set:
            set_tenant(db, r, out);
            break;
        case admin_action::tenant_delete:
            persistence::delete_tenant(db, r.tenant, r.force);
            out << "tenant " << r.tenant << " deleted\n";
            break;
        case admin_action::user_add:
            persistence::add_user(db, r.tenant, r.user, r.password.value_or(""), md5_key);
            out << "user " << r.user << " added to tenant " << r.tenant << "\n";
            print_md5_secret_note(db, r, md5_key, out);
            break;
        case admin_action::user_password:
            persistence::set_password(db, r.tenant, r.user, r.password.value_or(""), md5_key);
            out << "password of user " << r.user << " in tenant " << r.tenant << " set; its sessions end\n";
            print_md5_secret_note(db, r, md5_key, out);
            break;
        case admin_action::user_list:
            if (r.json) {
                out << users_json(persistence::list_users(db, r.tenant));
                break;
            }
            for (const auto& user : persistence::list_users(db, r.tenant)) {
                out << user.name << (user.disabled ? "\tdisabled" : "") << "\n";
            }
            break;
        case admin_action::user_show:
            show_user(db, r.tenant, r.user, r.json, out);
            break;
        case admin_action::user_import:
            if (const auto counts = import_users(db, r.file, out, md5_key); counts.failed > 0) {
                throw std::invalid_argument(std::to_string(counts.failed) + " line(s) of " + r.file +
                                            " failed (see the report); the others were imported");
            }
            break;
        case admin_action::user_import_items:
            print_import(import_user(db, r.tenant, r.user, r.file), r, out);
            break;
        case admin_action::user_export:
            print_transfer("exported from", export_user(db, r.tenant, r.user, r.file), r, out);
            break;
        case admin_action::user_delete:
            persistence::delete_user(db, r.tenant, r.user);
            out << "user " << r.user << " deleted from tenant " << r.tenant << " with its data and devices\n";
            break;
        case admin_action::user_disable:
        case admin_action::user_enable:
            persistence::set_user_disabled(db, r.tenant, r.user, r.action == admin_action::user_disable);
            out << "user " << r.user << " in tenant " << r.tenant
                << (r.action == admin_action::user_disable ? " disabled; its sessions end\n" : " enabled\n");
            break;
        case admin_action::device_list:
            print_devices(db, r, out);
            break;
        case admin_action::device_show:
            show_device(db, r.tenant, r.user, r.device, r.json, out);
            break;
        case admin_action::device_delete:
            persistence::delete_device(db, r.tenant, r.user, r.device);
            out << "device " << r.device << " of user " << r.user << " deleted; its next sync is a slow sync\n";
            break;
        case admin_action::device_reset:
            out << persistence::reset_device(db, r.tenant, r.device) << " device(s) reset; next sync is slow\n";
            break;
        case admin_action::device_window:
            run_device_window(db, {r.tenant, r.user, r.device, r.tenant_options, r.inherit, r.json}, out);
            break;
        case admin_action::session_list:
            list_sessions(db, r.tenant, r.user, r.json, out);
            break;
        case admin_action::session_kill:
            kill_session(db, r.tenant, r.session, out);
            break;
    }
}

}  // namespace

admin_parse_result parse_admin(const std::vector<std::string>& words) {
    admin_parse_result result;
    if (words.size() < 2) {
        result.error = "admin needs a subject and an action, e.g. 'admin tenant list' (see --help)";
        return result;
    }
    for (const auto& s : syntax()) {
        if (words[0] == s.noun && words[1] == s.verb) {
            result.request.action = s.action;
            result.error = read_arguments(s, words, result.request);
            return result;
        }
    }
    result.error = "unknown admin command '" + words[0] + " " + words[1] + "' (see --help)";
    return result;
}

std::string read_password(admin_request& request, std::istream& in) {
    if (request.action != admin_action::user_add && request.action != admin_action::user_password) return {};
    if (request.password && *request.password != "-") {
        return request.password->empty() ? "empty password" : "";
    }
    std::string line;
    if (!request.password_file.empty()) {
        std::ifstream file(request.password_file);
        if (!file) return "cannot read --password-file " + request.password_file;
        std::getline(file, line);
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

bool run_reporting_failure(const std::function<void()>& command, std::ostream& err) {
    try {
        command();
        return true;
    } catch (const persistence::not_found& e) {
        err << "not found: " << e.what() << "\n";
    } catch (const persistence::already_exists& e) {
        err << "already exists: " << e.what() << "\n";
    } catch (const std::invalid_argument& e) {
        err << "invalid: " << e.what() << "\n";
    } catch (const persistence::db_error& e) {
        err << "database error: " << e.what() << "\n";
    }
    return false;
}

int run_admin(const admin_request& request, persistence::database& db, std::ostream& out, std::ostream& err,
              const persistence::secret_key* md5_key) {
    return run_reporting_failure([&] { execute(request, db, out, md5_key); }, err) ? 0 : 1;
}

}  // namespace syncml::server
