// Running a parsed admin command (admin_command.hpp): one function per noun, each printing what it did.
#include "src/admin/cli/admin_command.hpp"

#include <functional>
#include <ostream>
#include <stdexcept>

#include "common/files/operator_file.hpp"
#include "common/log/log_value.hpp"
#include "persistence/accounts/accounts.hpp"
#include "persistence/pg/errors.hpp"
#include "src/admin/cli/admin_show.hpp"
#include "src/admin/cli/device_collection_command.hpp"
#include "src/admin/cli/device_push_command.hpp"
#include "src/admin/cli/device_window_command.hpp"
#include "src/admin/common/admin_json.hpp"
#include "src/admin/common/tenant_options.hpp"
#include "src/admin/transfer/user_import.hpp"
#include "src/admin/transfer/user_transfer.hpp"

namespace syncml::server {
namespace {

void print_tenants(persistence::database& db, bool json, std::ostream& out) {
    if (json) {
        out << tenants_json(persistence::list_tenants(db));
        return;
    }
    for (const auto& tenant : persistence::list_tenants(db)) {
        out << common::printable_text(tenant.name) << "\t" << describe_tenant_settings(tenant.settings, "\t") << "\n";
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
    out << "tenant " << common::printable_text(updated.name) << " " << describe_tenant_settings(updated.settings, " ")
        << "\n";
}

void print_devices(persistence::database& db, const admin_request& r, std::ostream& out) {
    if (r.json) {
        out << devices_json(persistence::list_devices(db, r.tenant, r.user));
        return;
    }
    for (const auto& device : persistence::list_devices(db, r.tenant, r.user)) {
        out << common::printable_text(device.device_uri)
            << "\tlast_seen=" << common::printable_text(device.last_seen.value_or("never"))
            << "\tstores=" << device.stores << "\n";
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
    for (const auto& why : c.rejected) out << "rejected " << common::printable_text(why) << "\n";
}

void execute_tenant(const admin_request& r, persistence::database& db, std::ostream& out) {
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
        default:  // execute() sends only tenant actions here
            break;
    }
}

void print_users(persistence::database& db, const admin_request& r, std::ostream& out) {
    if (r.json) {
        out << users_json(persistence::list_users(db, r.tenant));
        return;
    }
    for (const auto& user : persistence::list_users(db, r.tenant)) {
        out << common::printable_text(user.name) << (user.disabled ? "\tdisabled" : "") << "\n";
    }
}

void execute_user(const admin_request& r, persistence::database& db, std::ostream& out,
                  const persistence::secret_key* md5_key) {
    switch (r.action) {
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
            print_users(db, r, out);
            break;
        case admin_action::user_show:
            show_user(db, r.tenant, r.user, r.json, out);
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
        default:  // execute() sends only user account actions here
            break;
    }
}

void execute_transfer(const admin_request& r, persistence::database& db, std::ostream& out,
                      const persistence::secret_key* md5_key) {
    if (r.action == admin_action::user_import) {
        if (const auto counts = import_users(db, r.file, out, md5_key); counts.failed > 0) {
            throw std::invalid_argument(std::to_string(counts.failed) + " line(s) of " + r.file +
                                        " failed (see the report); the others were imported");
        }
    } else if (r.action == admin_action::user_import_items) {
        print_import(import_user(db, r.tenant, r.user, r.file), r, out);
    } else if (r.action == admin_action::user_export) {
        print_transfer("exported from", export_user(db, r.tenant, r.user, r.file), r, out);
    }
}

void execute_device(const admin_request& r, persistence::database& db, std::ostream& out) {
    switch (r.action) {
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
        case admin_action::device_push:
            run_device_push(db, {r.tenant, r.user, r.device, r.tenant_options, r.off, r.json}, out);
            break;
        case admin_action::device_collection:
            run_device_collection(db, {r.tenant, r.user, r.device, r.datastore, r.collection, r.to_default, r.json},
                                  out);
            break;
        case admin_action::session_list:
            list_sessions(db, r.tenant, r.user, r.json, out);
            break;
        case admin_action::session_kill:
            kill_session(db, r.tenant, r.session, out);
            break;
        default:  // execute() sends only device and session actions here
            break;
    }
}

// One case per action, so that the compiler names an action nobody executes.
void execute(const admin_request& r, persistence::database& db, std::ostream& out,
             const persistence::secret_key* md5_key) {
    switch (r.action) {
        case admin_action::tenant_add:
        case admin_action::tenant_list:
        case admin_action::tenant_show:
        case admin_action::tenant_set:
        case admin_action::tenant_delete:
            return execute_tenant(r, db, out);
        case admin_action::user_add:
        case admin_action::user_password:
        case admin_action::user_list:
        case admin_action::user_show:
        case admin_action::user_delete:
        case admin_action::user_disable:
        case admin_action::user_enable:
            return execute_user(r, db, out, md5_key);
        case admin_action::user_import:
        case admin_action::user_import_items:
        case admin_action::user_export:
            return execute_transfer(r, db, out, md5_key);
        case admin_action::device_list:
        case admin_action::device_show:
        case admin_action::device_delete:
        case admin_action::device_reset:
        case admin_action::device_window:
        case admin_action::device_push:
        case admin_action::device_collection:
        case admin_action::session_list:
        case admin_action::session_kill:
            return execute_device(r, db, out);
    }
}

}  // namespace

bool run_reporting_failure(const std::function<void()>& command, std::ostream& err) {
    try {
        command();
        return true;
    } catch (const persistence::not_found& e) {
        err << "not found: " << common::printable_text(e.what()) << "\n";
    } catch (const persistence::already_exists& e) {
        err << "already exists: " << common::printable_text(e.what()) << "\n";
    } catch (const std::invalid_argument& e) {
        err << "invalid: " << common::printable_text(e.what()) << "\n";
    } catch (const common::file_refused& e) {
        err << "refused: " << common::printable_text(e.what()) << "\n";
    } catch (const persistence::db_error& e) {
        err << "database error: " << common::printable_text(e.what()) << "\n";
    }
    return false;
}

int run_admin(const admin_request& request, persistence::database& db, std::ostream& out, std::ostream& err,
              const persistence::secret_key* md5_key) {
    return run_reporting_failure([&] { execute(request, db, out, md5_key); }, err) ? 0 : 1;
}

}  // namespace syncml::server
