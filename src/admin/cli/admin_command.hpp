#pragma once
// `syncml-server admin ...`: tenants, users and devices, parsed here and carried out through
// persistence/accounts/accounts.hpp.

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace syncml::persistence {
class database;
class secret_key;
}  // namespace syncml::persistence

namespace syncml::server {

enum class admin_action {
    tenant_add,
    tenant_list,
    tenant_show,
    tenant_set,
    tenant_delete,
    user_add,
    user_password,
    user_list,
    user_show,
    user_import,        // FILE.csv: bulk provisioning (src/admin/transfer/user_import.hpp)
    user_import_items,  // --in DIR: a user's items (src/admin/transfer/user_transfer.hpp)
    user_export,
    user_delete,
    user_disable,
    user_enable,
    device_list,
    device_show,
    device_reset,
    device_delete,
    device_window,      // src/admin/cli/device_window_command.hpp
    device_push,        // src/admin/cli/device_push_command.hpp
    device_collection,  // src/admin/cli/device_collection_command.hpp
    session_list,
    session_kill
};

struct admin_request {
    admin_action action = admin_action::tenant_list;
    std::string tenant;
    std::string user;
    // user add: the password comes from stdin (one line, no prompt) unless --password-file names a file holding
    // it on its first line; --password VALUE still works but shows the password to `ps` and shell history.
    std::optional<std::string> password;
    std::string password_file;
    std::string device;
    std::string session;  // session kill: the id session list prints
    std::string file;     // user import FILE.csv; the directory of user export --out and user import --in
    // Destructive commands (tenant, user and device delete) do nothing without --yes; tenant delete of a tenant
    // that still has users also needs --force.
    bool yes = false;
    bool force = false;
    bool json = false;     // list and show commands: JSON instead of lines
    bool inherit = false;  // device window: the tenant's window applies again
    bool off = false;      // device push: opts the device out
    // device collection: the datastore (its kind's name) and the collection it syncs, or --default.
    std::string datastore;
    std::optional<std::string> collection;
    bool to_default = false;
    // tenant add/set, device window, device push: (option, value) as given, e.g. ("--max-sessions", "500"); see
    // src/admin/common/tenant_options.hpp and src/admin/cli/device_push_command.hpp.
    std::vector<std::pair<std::string, std::string>> tenant_options;
};

struct admin_parse_result {
    admin_request request;
    std::string error;  // usage error; empty when fine
};

admin_parse_result parse_admin(const std::vector<std::string>& words);

// Fills request.password for `user add` from --password-file or from stdin (in) when --password was not given
// (or was '-', stdin, as before). Returns a usage error (empty password, unreadable file); empty when fine.
std::string read_password(admin_request& request, std::istream& in);

// Carries out the request; prints results to out and one clear message to err. Returns the exit status.
// Runs an admin command; a failure the admin can act on (not found, exists, invalid, database) is written to err
// as one line and gives false.
bool run_reporting_failure(const std::function<void()>& command, std::ostream& err);

// md5_key seals the md5 secret that `user add` and `user password` store for tenants with md5 auth on; null: the
// database's own key (persistence/accounts/credential_store.hpp).
int run_admin(const admin_request& request, persistence::database& db, std::ostream& out, std::ostream& err,
              const persistence::secret_key* md5_key = nullptr);

}  // namespace syncml::server
