#include "src/admin/cli/admin_show.hpp"

#include <charconv>
#include <ostream>
#include <stdexcept>

#include "common/log/log_value.hpp"
#include "persistence/accounts/account_details.hpp"
#include "persistence/accounts/admin_sessions.hpp"
#include "persistence/push/push_settings.hpp"
#include "src/admin/cli/device_push_command.hpp"
#include "src/admin/common/admin_json.hpp"
#include "src/admin/common/tenant_options.hpp"

namespace syncml::server {

void show_tenant(persistence::database& db, const std::string& tenant, bool json, std::ostream& out) {
    const auto details = persistence::show_tenant(db, tenant);
    if (json) {
        out << tenant_json(details);
        return;
    }
    out << "tenant\t" << common::printable_text(details.tenant.name) << "\n"
        << "created_at\t" << details.created_at << "\n"
        << "settings\t" << describe_tenant_settings(details.tenant.settings, " ") << "\n"
        << "users\t" << details.users << "\n"
        << "disabled_users\t" << details.disabled_users << "\n"
        << "devices\t" << details.devices << "\n"
        << "live_sessions\t" << details.live_sessions << "\n";
}

void show_user(persistence::database& db, const std::string& tenant, const std::string& user, bool json,
               std::ostream& out) {
    const auto details = persistence::show_user(db, tenant, user);
    if (json) {
        out << user_json(details);
        return;
    }
    out << "user\t" << common::printable_text(details.name) << "\n"
        << "tenant\t" << common::printable_text(tenant) << "\n"
        << "created_at\t" << details.created_at << "\n"
        << "disabled\t" << details.disabled_at.value_or("no") << "\n"
        << "devices\t" << details.devices << "\n"
        << "last_sync\t" << details.last_sync.value_or("never") << "\n"
        << "stored_bytes\t" << details.stored_bytes << "\n"
        << "max_user_bytes\t" << details.max_user_bytes << (details.max_user_bytes == 0 ? " (no quota)" : "") << "\n";
    for (const auto& store : details.datastores) {
        out << "datastore\t" << common::printable_text(store.name) << "\titems=" << store.items
            << "\ttombstones=" << store.tombstones << "\tmodseq=" << store.modseq
            << "\tstored_bytes=" << store.stored_bytes << "\n";
    }
}

void show_device(persistence::database& db, const std::string& tenant, const std::string& user,
                 const std::string& device, bool json, std::ostream& out) {
    const auto details = persistence::show_device(db, tenant, user, device);
    const auto push = persistence::device_push(db, tenant, user, device);
    if (json) {
        out << device_json(details, push);
        return;
    }
    out << "device\t" << common::printable_text(details.device_uri) << "\n"
        << "user\t" << common::printable_text(details.user) << "\n"
        << "first_seen\t" << details.first_seen << "\n"
        << "last_seen\t" << details.last_seen.value_or("never") << "\n"
        << "address_continued\t" << details.address_continued.value_or("never") << "\n"
        << "devinf\t" << (details.has_devinf ? "yes" : "no") << "\n";
    for (const auto& store : details.stores) {
        out << "datastore\t" << common::printable_text(store.datastore)
            << "\tremote_uri=" << common::printable_text(store.remote_uri)
            << "\tformat=" << common::printable_text(store.format.value_or("-"))
            << "\tlast_sync=" << store.last_sync.value_or("never")
            << "\tslow_sync_next=" << (store.needs_slow_sync ? "yes" : "no") << "\tmapped_items=" << store.mapped_items
            << "\n";
    }
    print_push_status(push, out);
}

void list_sessions(persistence::database& db, const std::string& tenant, const std::string& user, bool json,
                   std::ostream& out) {
    const auto sessions = persistence::list_sessions(db, tenant, user);
    if (json) {
        out << sessions_json(sessions);
        return;
    }
    for (const auto& s : sessions) {
        out << s.id << "\tsession=" << common::printable_text(s.syncml_session_id)
            << "\tuser=" << common::printable_text(s.user.value_or("-"))
            << "\tdevice=" << common::printable_text(s.device_uri) << "\tstarted=" << s.started
            << "\tlast_message=" << s.last_message << "\tmessages=" << s.messages << "\t"
            << (s.finished ? "finished" : "open") << "\n";
    }
}

void kill_session(persistence::database& db, const std::string& tenant, const std::string& id, std::ostream& out) {
    std::int64_t key = 0;
    const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), key);
    if (error != std::errc{} || end != id.data() + id.size() || key <= 0) {
        throw std::invalid_argument("session id '" + id + "' is no number (see session list)");
    }
    persistence::kill_session(db, tenant, key);
    out << "session " << key << " of tenant " << tenant << " ended; its device's next message starts anew\n";
}

}  // namespace syncml::server
